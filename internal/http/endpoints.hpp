#pragma once

// Inside the API (api.cpp): what an endpoint runs with, and the endpoints the route table
// (routes.cpp) names, each with the schema of the arguments it takes. Each endpoint answers the
// --json object of the operation it calls.

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
  const Request& request;
  const Route& route;
  const nlohmann::json& args; // validated against the row's schema: the query's (GET) or the body's (POST)
  // Set by an endpoint that answers with something else than its JSON: a refusal of the
  // server's own, or an accepted event stream.
  std::optional<Response> answer = std::nullopt;
};

// Runs `fn` with a Session of its own acting as `me` (the operator, or the mailbox a view names),
// on a pooled store connection (ops::PooledSession). A request with `method` other than GET and
// HEAD records the presence of `me` as `http` once it succeeded (ops::presence_of_request); a GET
// records none.
Result<nlohmann::json> with_session(ApiEnv& env, const config::Identity& me, std::string_view method,
                                    const std::function<Result<nlohmann::json>(ops::Session&)>& fn);

// The argument `name`, if given.
std::optional<std::string> query(const Call& call, const char* name);
// The query parameter `name` as a positive number, if given. Errors: usage.
Result<std::optional<std::size_t>> query_count(const Call& call, const char* name);
// The identity a view acts as: ?mailbox=NAME, else the operator. Errors: usage (not a mailbox).
Result<config::Identity> viewer(const Call& call);

// Argument schemas the rows share.
nlohmann::json no_args();
nlohmann::json view_args(); // ?mailbox=NAME

// endpoints_session.cpp: the login, who the session acts as, a login link, and the event stream.
Result<nlohmann::json> login(Call& call);
nlohmann::json login_args();
Result<nlohmann::json> session_info(Call& call);
Result<nlohmann::json> login_code(Call& call);
Result<nlohmann::json> events(Call& call);
nlohmann::json events_args();

// endpoints_views.cpp
Result<nlohmann::json> team(Call& call);
Result<nlohmann::json> peers(Call& call);
Result<nlohmann::json> mailboxes(Call& call);
Result<nlohmann::json> message(Call& call);
Result<nlohmann::json> thread(Call& call);
Result<nlohmann::json> status(Call& call);
Result<nlohmann::json> traces(Call& call);
nlohmann::json traces_args();
Result<nlohmann::json> trace(Call& call);
Result<nlohmann::json> search(Call& call);
nlohmann::json search_args();

// endpoints_lists.cpp
Result<nlohmann::json> mailbox_messages(Call& call);
nlohmann::json mailbox_messages_args();

// endpoints_changes.cpp
Result<nlohmann::json> send(Call& call);
nlohmann::json send_args();
Result<nlohmann::json> reply(Call& call);
nlohmann::json reply_args();
// POST messages/{id}/ACTION: the change its last path segment names.
Result<nlohmann::json> change(Call& call);
nlohmann::json change_args();

// endpoints_archive.cpp: POST archive (gc's filtered archive, as the operator).
Result<nlohmann::json> archive_matching(Call& call);
nlohmann::json archive_matching_args();

// endpoints_requests.cpp: the life of a request (POST messages/{id}/cancel|decline|ask|fail).
Result<nlohmann::json> cancel(Call& call);
nlohmann::json cancel_args();
Result<nlohmann::json> decline(Call& call);
Result<nlohmann::json> ask(Call& call);
Result<nlohmann::json> fail(Call& call);
nlohmann::json reason_args(); // decline, fail: reason, for
nlohmann::json ask_args();    // question (required), for

// endpoints_schedules.cpp: schedules (GET/POST schedules, GET schedules/{from}/{name}, POST
// schedules/{from}/{name}/pause|resume|cancel|run-now).
Result<nlohmann::json> schedule_list(Call& call);
nlohmann::json schedule_list_args();
Result<nlohmann::json> schedule_add(Call& call);
nlohmann::json schedule_add_args();
Result<nlohmann::json> schedule_show(Call& call);
nlohmann::json schedule_show_args();
Result<nlohmann::json> schedule_pause(Call& call);
Result<nlohmann::json> schedule_resume(Call& call);
Result<nlohmann::json> schedule_cancel(Call& call);
nlohmann::json schedule_cancel_args();
Result<nlohmann::json> schedule_run_now(Call& call);

} // namespace mailroom::http
