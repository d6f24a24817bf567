// The life of a request, as this server's mailbox (ops/requests.hpp): cancel a request it sent,
// or decline, ask about or fail one it received. `for` acts for another mailbox, as the CLI's
// --for does (the sender for cancel, a recipient for the others).

#include "mcp/schema.hpp"
#include "mcp/tool_list.hpp"
#include "mcp/tool_support.hpp"
#include "ops/requests.hpp"

namespace mailroom::mcp {

namespace {

Result<ToolOutput> run_cancel(ToolCall& call)
{
  ops::CancelRequest request;
  request.id = arg_string(call.args, "id").value_or("");
  request.reason = arg_string(call.args, "reason").value_or("");
  request.to = arg_string(call.args, "to");
  request.for_name = arg_string(call.args, "for");
  TRY_ASSIGN(const ops::CancelResult result, ops::cancel(call.session, request));
  return output_of(result);
}

Result<ToolOutput> respond(ToolCall& call, mail::RequestVerb verb, const char* text_key)
{
  ops::RespondRequest request;
  request.verb = verb;
  request.id = arg_string(call.args, "id").value_or("");
  request.text = arg_string(call.args, text_key).value_or("");
  request.for_name = arg_string(call.args, "for");
  TRY_ASSIGN(const ops::RespondResult result, ops::respond(call.session, request));
  return output_of(result);
}

Result<ToolOutput> run_decline(ToolCall& call)
{
  return respond(call, mail::RequestVerb::decline, "reason");
}
Result<ToolOutput> run_ask(ToolCall& call)
{
  return respond(call, mail::RequestVerb::ask, "question");
}
Result<ToolOutput> run_fail(ToolCall& call)
{
  return respond(call, mail::RequestVerb::fail, "reason");
}

json id_property()
{
  return schema::string("the request's id (or a unique prefix)");
}
json for_property(std::string_view who)
{
  return schema::string(who);
}

json cancel_input()
{
  return schema::input(json{{"id", id_property()},
                            {"reason", schema::string("why (the notice's body)")},
                            {"to", schema::string("only this recipient's delivery")},
                            {"for", for_property("as this sender (an operator)")}},
                       {"id"});
}
json reason_input()
{
  return schema::input(json{{"id", id_property()},
                            {"reason", schema::string("why (the notice's body)")},
                            {"for", for_property("for this recipient (an operator)")}},
                       {"id"});
}
json ask_input()
{
  return schema::input(json{{"id", id_property()},
                            {"question", schema::string("what its sender must answer first")},
                            {"for", for_property("for this recipient (an operator)")}},
                       {"id", "question"});
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
                   "Withdraw a request this mailbox sent: its open deliveries are canceled, their "
                   "recipients notified.",
                   false, cancel_input, cancel_output, run_cancel});
  tools.push_back({"decline", "Refuse a request this mailbox received; its sender is notified.", false,
                   reason_input, respond_output, run_decline});
  tools.push_back({"ask",
                   "Ask the sender of a request received a question; the request waits, its TTL "
                   "paused, until answered.",
                   false, ask_input, respond_output, run_ask});
  tools.push_back({"fail", "Report a request this mailbox received as failed; its sender is notified.", false,
                   reason_input, respond_output, run_fail});
}

} // namespace mailroom::mcp
