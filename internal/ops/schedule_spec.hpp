#pragma once

// Internal to the schedule operations: reading a schedule's options as typed into what the store
// keeps, with every check made before anything is stored (ops/schedules.hpp).

#include <optional>
#include <string>
#include <string_view>

#include "mail/schedules.hpp"
#include "schedule/zone.hpp"
#include "schedules.hpp"
#include "session.hpp"

namespace mailroom::ops::schedule_spec {

// A schedule name: 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit.
Result<void> check_name(std::string_view name);

// The zone of a schedule: `tz`, else [schedule] timezone, else $TZ, else the system's, else UTC.
// Errors: usage (schedule::choose_zone).
Result<schedule::Zone> zone_of(const Session& session, const std::optional<std::string>& tz);

// The rule `options` give in `zone` at `now`, starting from `base` (edit: what is stored; the
// options given replace its parts). Errors: usage naming the option.
Result<mail::ScheduleRule> rule_of(const RuleOptions& options, const schedule::Zone& zone,
                                   mail::UnixMillis now, const std::optional<mail::ScheduleRule>& base);

// --catch-up and --overlap onto `spec`. Errors: usage naming the value.
Result<void> apply_policies(const RuleOptions& options, mail::ScheduleSpec& spec);

// The message of `request` as send checks it (sizes, type, ttl, key, the reach) and its
// recipients checked against the registry now, sent by `owner`. Errors: those of send.
Result<mail::ScheduleMessage> message_of(Session& session, const SendRequest& request,
                                         const mail::Mailbox& owner, bool notify,
                                         std::optional<std::string>* idempotency_key = nullptr);

// The mailboxes `message` reaches now (groups and @all expanded), to then cc. Errors: those of
// send's recipients.
Result<std::vector<mail::Mailbox>> reach_of(Session& session, const mail::Mailbox& owner,
                                            const mail::ScheduleMessage& message);

} // namespace mailroom::ops::schedule_spec
