// send and reply, as this server's mailbox; send reaches at most 20 mailboxes (groups and @all
// expanded) unless the server runs with --allow-broadcast; send wait_reply waits for the reply
// (ops/send.hpp, ops/send_wait.hpp). On a provider without multi-recipient messages (exec) a send to
// several is one message per recipient, as on the CLI.

#include <fmt/format.h>

#include "mcp/schema.hpp"
#include "mcp/tool_list.hpp"
#include "mcp/tool_support.hpp"
#include "mcp/waiting.hpp"
#include "ops/send.hpp"
#include "ops/send_arguments.hpp"
#include "ops/send_wait.hpp"
#include "ops/wait.hpp"
#include "text/sanitize.hpp"

namespace mailroom::mcp {

namespace {

ops::Sending sending_of(const ToolCall& call)
{
  return ops::sending_of(call.args);
}

// wait_reply's answer: the send's object with the wait's outcome and the reply (bodies cut), as
// the CLI's send --wait-reply --json.
ToolOutput sent_and_waited(ToolCall& call, const ops::SendResult& sent, const ops::WaitResult& waited)
{
  const mail::Message& message = sent.receipts.front().message;
  ToolOutput out = wait_output(call, waited);
  ops::WaitResult shown = waited;
  if (shown.outcome.message) {
    shown.outcome.message = shaped(call, std::move(*shown.outcome.message));
  }
  if (shown.outcome.notice) {
    shown.outcome.notice = shaped(call, std::move(*shown.outcome.notice));
  }
  out.structured = ops::to_json(sent, shown);
  text::DisplayText text = output_of(sent).text;
  text +=
      waited.outcome.message
          ? out.text
          : text::DisplayText::format("No reply yet ({}); wait again with the wait tool and reply_to {}\n",
                                      text::sanitize_line(out.structured["outcome"].get<std::string>()),
                                      text::sanitize_line(message.id));
  out.text = std::move(text);
  return out;
}

// send with wait_reply: ops::send_and_wait, the reply read as the CLI's send --wait-reply reads it
// (marked read only in the same step as the answer is written).
Result<ToolOutput> send_and_wait(ToolCall& call, ops::SendRequest request)
{
  ops::SendWaitRequest asked;
  asked.send = std::move(request);
  TRY_ASSIGN(asked.deadline, wait_deadline(call));
  std::optional<ToolOutput> found;
  const ops::SendWaitDeliver deliver = [&](const ops::SendResult& sent,
                                           const ops::WaitResult& waited) -> Result<void> {
    if (waited.outcome.message) {
      call.taken = {waited.outcome.message->id}; // read: marked read once this answer is written
    }
    return deliver_found(call, found, sent_and_waited(call, sent, waited));
  };
  TRY_ASSIGN(const ops::SendWaitResult result, ops::send_and_wait(call.session, asked, {}, deliver));
  if (!result.waited) {
    return output_of(result.sent); // a send --dedup suppressed stored nothing to wait on
  }
  if (result.waited->outcome.end == mail::WaitEnd::interrupted) {
    return make_error(ErrorCode::timeout, "the wait was cancelled");
  }
  if (found) {
    return std::move(*found);
  }
  return sent_and_waited(call, result.sent, *result.waited);
}

Result<ToolOutput> run_send(ToolCall& call)
{
  ops::SendRequest request;
  request.to = arg_strings(call.args, "to");
  request.cc = arg_strings(call.args, "cc");
  request.subject = arg_string(call.args, "subject");
  request.body = arg_string(call.args, "body").value_or(""); // none with no subject: ops refuses it
  request.sending = sending_of(call);
  request.usage = "give \"to\": a mailbox, @group or a list of them";
  request.dedup = arg_string(call.args, "dedup");
  request.supersede = arg_string(call.args, "supersede");
  if (!call.env.allow_broadcast) {
    request.max_reach = k_max_send_mailboxes;
    request.reach_hint = "name fewer recipients, or start the server with 'mailroom mcp --allow-broadcast'";
  }
  const bool wait_reply = arg_flag(call.args, "wait_reply");
  if (call.args.contains("timeout") && !wait_reply) {
    return usage("timeout needs wait_reply");
  }
  if (wait_reply) {
    return send_and_wait(call, std::move(request));
  }
  TRY_ASSIGN(const ops::SendResult result, ops::send(call.session, request));
  return output_of(result);
}

Result<ToolOutput> run_reply(ToolCall& call)
{
  ops::ReplyRequest request;
  request.id = arg_string(call.args, "id").value_or("");
  request.subject = arg_string(call.args, "subject");
  request.body = arg_string(call.args, "body").value_or(""); // none with no subject: ops refuses it
  request.all = arg_flag(call.args, "all");
  request.confirmed = request.all && call.env.allow_broadcast;
  request.sending = sending_of(call);
  TRY_ASSIGN(const ops::ReplyResult result, ops::reply(call.session, request));
  return output_of(result);
}

json common_properties()
{
  return ops::sending_properties();
}

json send_input()
{
  json properties = common_properties();
  properties["to"] = schema::strings("recipients: mailboxes, @group, @all");
  properties["cc"] = schema::strings("copies");
  properties["dedup"] = schema::string("skip recipients still holding your unarchived message with this key");
  properties["supersede"] =
      schema::string("archive recipients' unread earlier messages of yours with this key");
  properties["wait_reply"] = schema::boolean("wait for the first reply and return it");
  properties["timeout"] = schema::string("with wait_reply: how long to wait (default 30s, at most 55s)");
  properties["max_body_bytes"] =
      schema::integer("cut the reply's body to this many bytes (default 16384)", 0, 1 << 20);
  return schema::input(std::move(properties), {"to"});
}

json reply_input()
{
  json properties = common_properties();
  properties["id"] = schema::string("the message replied to (a unique prefix is enough)");
  properties["all"] = schema::boolean("reply to everyone on it");
  return schema::input(std::move(properties), {"id"});
}

// send with wait_reply adds the wait's outcome to the send's object, the reply under "reply".
json send_output()
{
  // With wait_reply the result also has the wait's outcome, timed_out, notice and the reply.
  return schema::from_operation(ops::send_output_schema());
}

json reply_output()
{
  return schema::from_operation(ops::reply_output_schema());
}

} // namespace

void add_send_tools(std::vector<ToolDef>& tools)
{
  tools.push_back({"send",
                   "Send a message from this mailbox (to mailboxes, @group or @all; at most 20 mailboxes).",
                   true, send_input, send_output, run_send});
  tools.push_back({"reply", "Reply to a message (its sender; all=true: everyone on it).", true, reply_input,
                   reply_output, run_reply});
}

} // namespace mailroom::mcp
