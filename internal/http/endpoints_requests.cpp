// The life of a request (ops/requests.hpp), acting as the operator: POST messages/{id}/cancel (as
// the sender, or for the sender "for") and messages/{id}/decline|ask|fail (for a recipient "for").
// The body's keys are the MCP tools' (ops/request_arguments.hpp).

#include "endpoints.hpp"
#include "ops/request_arguments.hpp"
#include "ops/requests.hpp"

namespace mailroom::http {

using nlohmann::json;

namespace {

Result<json> respond_as_operator(Call& call, mail::RequestVerb verb)
{
  const ops::RespondRequest request = ops::respond_request_of(verb, call.route.param("id"), call.args);
  return with_session(call.env, call.env.me, call.request.method,
                      [&request](ops::Session& session) -> Result<json> {
                        TRY_ASSIGN(const ops::RespondResult result, ops::respond(session, request));
                        return ops::to_json(result);
                      });
}

} // namespace

json cancel_args()
{
  return ops::cancel_arguments();
}

Result<json> cancel(Call& call)
{
  const ops::CancelRequest request = ops::cancel_request_of(call.route.param("id"), call.args);
  return with_session(call.env, call.env.me, call.request.method,
                      [&request](ops::Session& session) -> Result<json> {
                        TRY_ASSIGN(const ops::CancelResult result, ops::cancel(session, request));
                        return ops::to_json(result);
                      });
}

json reason_args()
{
  return ops::respond_arguments(mail::RequestVerb::decline);
}

json ask_args()
{
  return ops::respond_arguments(mail::RequestVerb::ask);
}

Result<json> decline(Call& call)
{
  return respond_as_operator(call, mail::RequestVerb::decline);
}

Result<json> ask(Call& call)
{
  return respond_as_operator(call, mail::RequestVerb::ask);
}

Result<json> fail(Call& call)
{
  return respond_as_operator(call, mail::RequestVerb::fail);
}

} // namespace mailroom::http
