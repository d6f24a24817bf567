#pragma once

// The JSON arguments of adding a schedule on the surfaces that take JSON (the MCP `schedule_add`
// tool, the HTTP API's POST schedules): the schema, written once, and its reading into the
// operation's request. One object adds either a one-shot (`at` or `in`, as send --at) or a
// recurring schedule (`name` with `every` or `cron`).

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "ops/schedules.hpp"

namespace mailroom::ops {

// schedule_add's ops::args input schema, plus `added` properties; `to` is required.
nlohmann::json schedule_add_arguments(const nlohmann::json& added = nlohmann::json::object());

// The request of arguments that passed ops::args::validate against that schema: a one-shot or a
// recurring schedule. Errors: usage (neither body nor subject; a one-shot given name, every or
// cron).
Result<std::variant<SendLaterRequest, ScheduleAddRequest>>
schedule_add_request_of(const nlohmann::json& args);

} // namespace mailroom::ops
