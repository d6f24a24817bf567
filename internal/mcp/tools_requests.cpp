// The life of a request, as this server's mailbox (ops/requests.hpp): cancel a request it sent,
// or decline, ask about or fail one it received. `for` acts for another mailbox, as the CLI's
// --for does (the sender for cancel, a recipient for the others).

#include "mcp/schema.hpp"
#include "mcp/tool_list.hpp"
#include "mcp/tool_support.hpp"
#include "ops/request_arguments.hpp"
#include "ops/requests.hpp"

namespace mailroom::mcp {

namespace {

Result<ToolOutput> run_cancel(ToolCall& call)
{
  const ops::CancelRequest request =
      ops::cancel_request_of(arg_string(call.args, "id").value_or(""), call.args);
  TRY_ASSIGN(const ops::CancelResult result, ops::cancel(call.session, request));
  return output_of(result);
}

Result<ToolOutput> respond(ToolCall& call, mail::RequestVerb verb)
{
  const ops::RespondRequest request =
      ops::respond_request_of(verb, arg_string(call.args, "id").value_or(""), call.args);
  TRY_ASSIGN(const ops::RespondResult result, ops::respond(call.session, request));
  return output_of(result);
}

Result<ToolOutput> run_decline(ToolCall& call)
{
  return respond(call, mail::RequestVerb::decline);
}
Result<ToolOutput> run_ask(ToolCall& call)
{
  return respond(call, mail::RequestVerb::ask);
}
Result<ToolOutput> run_fail(ToolCall& call)
{
  return respond(call, mail::RequestVerb::fail);
}

// The request's id, then the keys the HTTP routes take too (ops/request_arguments.hpp).
json id_argument()
{
  return json{{"id", schema::string("the request's id (or a unique prefix)")}};
}

json cancel_input()
{
  return ops::cancel_arguments(id_argument(), {"id"});
}
json reason_input()
{
  return ops::respond_arguments(mail::RequestVerb::decline, id_argument(), {"id"});
}
json ask_input()
{
  return ops::respond_arguments(mail::RequestVerb::ask, id_argument(), {"id"});
}
json cancel_output()
{
  return schema::from_operation(ops::cancel_output_schema());
}
json respond_output()
{
  return schema::from_operation(ops::respond_output_schema());
}

} // namespace

void add_request_tools(std::vector<ToolDef>& tools)
{
  tools.push_back({"cancel",
                   "Withdraw a request this mailbox sent: every open delivery becomes canceled and its "
                   "recipients get a canceled notice.",
                   false, cancel_input, cancel_output, run_cancel});
  tools.push_back({"decline", "Refuse a request this mailbox received; its sender gets a declined notice.",
                   false, reason_input, respond_output, run_decline});
  tools.push_back({"ask",
                   "Ask the sender of a request this mailbox received a question; the request waits "
                   "(its TTL paused) until the sender replies to the question.",
                   false, ask_input, respond_output, run_ask});
  tools.push_back({"fail",
                   "Report that a request this mailbox received failed; its sender gets a failed notice.",
                   false, reason_input, respond_output, run_fail});
}

} // namespace mailroom::mcp
