// The endpoints around a session rather than the mail: the browser's login (a single-use code for
// a session token), who the session acts as, a new login link for `serve login`, and the live
// event stream.

#include "endpoints.hpp"
#include "ops/arguments.hpp"
#include "ops/pooled_session.hpp"
#include "ops/whoami.hpp"
#include "render/json.hpp"
#include "sse.hpp"

namespace mailroom::http {

using nlohmann::json;

json login_args()
{
  return ops::args::input(json{{"code", ops::args::string("the login code")}}, {"code"});
}

// POST /api/v1/session {"code":"..."} -> {"token": the session token}.
Result<json> login(Call& call)
{
  ApiEnv& env = call.env;
  if (!env.codes.redeem(query(call, "code").value_or(""), env.clock.now())) {
    call.answer = refusal_response(Refusal::unauthorized, "this login code is used, expired or unknown",
                                   "run mailroom serve login for a new login URL");
    return json();
  }
  json doc = render::json_document();
  doc["token"] = env.credentials.session_token();
  return doc;
}

// POST /api/v1/login-codes (the token itself, not a session): a fresh single-use login link, for
// `mailroom serve login`.
Result<json> login_code(Call& call)
{
  ApiEnv& env = call.env;
  const mail::UnixMillis now = env.clock.now();
  json doc = render::json_document();
  doc["url"] = login_link(env.link_host, env.codes.issue(now));
  doc["expires_at"] = now + LoginCodes::k_lifetime_ms;
  return doc;
}

// GET /api/v1/session: who the page acts as (the operator) and the types it may send. It needs
// no store, so the page can say who it is while the store is away.
Result<json> session_info(Call& call)
{
  ApiEnv& env = call.env;
  ops::PooledSession storeless(env.connections, ops::SessionParts{env.config, env.policy, env.clock, env.env},
                               env.me); // never opened: a session without a store
  return ops::to_json(ops::whoami(storeless.session()));
}

json events_args()
{
  return ops::args::input(
      json{{"after", ops::args::string("start after this event id (else Last-Event-ID)")}});
}

// GET /api/v1/events: the server hands the connection to the event stream (event_hub.hpp).
Result<json> events(Call& call)
{
  TRY_ASSIGN(const std::optional<std::int64_t> after,
             stream_after(call.request.last_event_id, query(call, "after")));
  Response response;
  response.stream = StreamStart{after};
  call.answer = std::move(response);
  return json();
}

} // namespace mailroom::http
