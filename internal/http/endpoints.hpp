#pragma once

// Inside the API (api.cpp): what an endpoint runs with, and the endpoints by kind. Each
// endpoint answers the --json object of the operation it calls.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "api.hpp"
#include "ops/session.hpp"
#include "route.hpp"

namespace mailroom::http {

struct Call {
  ApiEnv& env;
  const Route& route;
  const Target& target;
  const nlohmann::json& body; // POST: the parsed object; else null
};

// Runs `fn` with a Session of its own acting as `me` (the operator, or the mailbox a view names),
// on a pooled store connection, recording no presence.
Result<nlohmann::json> with_session(ApiEnv& env, const config::Identity& me,
                                    const std::function<Result<nlohmann::json>(ops::Session&)>& fn);

// The query parameter `name`, if given.
std::optional<std::string> query(const Call& call, const char* name);
// The query parameter `name` as a positive number, if given. Errors: usage.
Result<std::optional<std::size_t>> query_count(const Call& call, const char* name);
// The identity a view acts as: ?mailbox=NAME, else the operator. Errors: usage (not a mailbox).
Result<config::Identity> viewer(const Call& call);

// A POST body's arguments (endpoints_changes.cpp). Errors: usage naming the argument.
Error bad_argument(std::string_view name, std::string_view shape);
Result<std::optional<std::string>> string_arg(const nlohmann::json& body, const char* name);
Result<std::vector<std::string>> strings_arg(const nlohmann::json& body, const char* name); // or one string
Result<bool> flag_arg(const nlohmann::json& body, const char* name);

Result<nlohmann::json> get_view(Call& call);         // endpoints_views.cpp
Result<nlohmann::json> get_mailbox_list(Call& call); // endpoints_lists.cpp
Result<nlohmann::json> post_change(Call& call);      // endpoints_changes.cpp
Result<nlohmann::json> schedules(Call& call);        // endpoints_schedules.cpp

} // namespace mailroom::http
