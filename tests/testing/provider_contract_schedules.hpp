#pragma once

// Shared by the schedule cases of the provider contract suite (provider_contract_schedules.cpp,
// provider_contract_firing.cpp): a schedule spec in one call, firing at an instant, and the slots
// a run fired.

#include <optional>
#include <string>
#include <vector>

#include "mail/schedules.hpp"
#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

// The store's schedules facet, or nullptr after checking that the store answers unsupported.
// Also nullptr when the test does not control the store's clock (the cases move time).
mail::Schedules* schedules_of(Fixture& f);

// A spec from `from` named `name` to `to` (type cron_task).
mail::ScheduleSpec every_spec(const Mailbox& from, const std::string& name,
                              const std::vector<std::string>& to, mail::Millis every);
mail::ScheduleSpec cron_spec(const Mailbox& from, const std::string& name, const std::vector<std::string>& to,
                             const std::string& cron, const std::string& tz);

// Sets the store's clock to `at` and runs one firing pass; requires success.
mail::FireReport fire_at(Fixture& f, mail::Schedules& schedules, mail::UnixMillis at);
// The slots of `report`'s rows with `outcome`.
std::vector<mail::UnixMillis> slots_with(const mail::FireReport& report, mail::FiringOutcome outcome);
// An RFC 3339 instant in milliseconds.
mail::UnixMillis at(const char* rfc3339);

void run_schedule_rule_cases(const ProviderMaker& make);   // provider_contract_schedules.cpp
void run_schedule_firing_cases(const ProviderMaker& make); // provider_contract_firing.cpp

} // namespace mailroom::testing::contract
