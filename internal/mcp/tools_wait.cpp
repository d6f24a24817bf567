// wait: the first message that matches, within `timeout` (default 30 s, at most 55 s), on
// ops::wait. A cancelled wait returns nothing and, with read=true, marks nothing: the message is
// marked read only in the same step as its answer is written (ToolCall::answer), so a
// cancellation that arrives after the take but before the answer keeps it unread.

#include <fmt/format.h>

#include "mcp/schema.hpp"
#include "mcp/tool_list.hpp"
#include "mcp/tool_support.hpp"
#include "mcp/waiting.hpp"
#include "ops/wait.hpp"
#include "text/sanitize.hpp"

namespace mailroom::mcp {

namespace {

Result<ToolOutput> run_wait(ToolCall& call)
{
  ops::WaitRequest request;
  TRY_ASSIGN(request.deadline, wait_deadline(call));
  request.types = arg_strings(call.args, "type");
  request.from = arg_string(call.args, "from");
  request.thread = arg_string(call.args, "thread");
  request.reply_to = arg_string(call.args, "reply_to");
  request.since = arg_string(call.args, "since");
  request.after = arg_string(call.args, "after");
  request.read = arg_flag(call.args, "read");
  std::optional<ToolOutput> found;
  const ops::WaitDeliver deliver = [&](const ops::WaitResult& result) -> Result<void> {
    if (request.read && result.outcome.message) {
      call.taken = {result.outcome.message->id}; // marked read once this answer is written
    }
    return deliver_found(call, found, wait_output(call, result));
  };
  TRY_ASSIGN(const ops::WaitResult result, ops::wait(call.session, request, deliver));
  if (result.outcome.end == mail::WaitEnd::interrupted) {
    return make_error(ErrorCode::timeout, "the wait was cancelled");
  }
  if (found) {
    return std::move(*found);
  }
  return wait_output(call, result); // answered already when found (call.answered), else not found
}

json wait_input()
{
  return schema::input(json{
      {"timeout", schema::string("give up after this long (default 30s, at most 55s)")},
      {"type", schema::strings("only messages of these types")},
      {"from", schema::string("only messages from this mailbox")},
      {"thread", schema::string("only this thread (a thread id or any message id in it)")},
      {"reply_to", schema::string("a reply to this message (or the end of that request)")},
      {"since", schema::string("created at or after: a time or an age such as 10m")},
      {"after", schema::string("only mail that arrived after this message (a loop-safe cursor)")},
      {"read", schema::boolean("mark the message read (of several waiters exactly one gets it)")},
      {"max_body_bytes", schema::integer("cut the body to this many bytes (default 16384)", 0, 1 << 20)}});
}

json wait_output()
{
  return schema::from_operation(ops::wait_output_schema());
}

} // namespace

void add_wait_tools(std::vector<ToolDef>& tools)
{
  tools.push_back({"wait",
                   "Wait for the next matching message (default 30s, at most 55s); read=true takes it.", true,
                   wait_input, wait_output, run_wait});
}

} // namespace mailroom::mcp
