#pragma once

// Internal to the operation layer's schedule views (schedule_views.cpp, schedule_show.cpp): the
// schedule object every surface returns (contract "Schedules", decisions "JSON"), its schema, and
// the pieces of the human views, times in each schedule's own zone.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "mail/schedules.hpp"

namespace mailroom::ops::schedule_view {

nlohmann::json firing_to_json(const mail::Firing& f);
nlohmann::json schedule_to_json(const mail::Schedule& s);
nlohmann::json schedule_schema();
// "2026-12-02 09:00 CET" in the schedule's zone (UTC when the zone no longer loads).
std::string wall_time(const mail::Schedule& s, mail::UnixMillis when);
std::string rule_text(const mail::Schedule& s);
std::string state_text(const mail::Schedule& s);
std::string last_text(const mail::Schedule& s, mail::UnixMillis now);
std::string request_text(const mail::Firing& f);

} // namespace mailroom::ops::schedule_view
