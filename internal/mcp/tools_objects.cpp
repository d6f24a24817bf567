// One message or one conversation: read, peek, thread, status, trace (ops/read.hpp, peek, thread, views).

#include <fmt/format.h>

#include "mcp/schema.hpp"
#include "mcp/tool_list.hpp"
#include "mcp/tool_support.hpp"
#include "ops/peek.hpp"
#include "ops/read.hpp"
#include "ops/thread.hpp"
#include "ops/views.hpp"

namespace mailroom::mcp {

namespace {

json id_input(std::string_view what)
{
  return schema::input(json{{"id", schema::string(what)},
                            {"max_body_bytes",
                             schema::integer("cut the body to this many bytes (default 16384)", 0, 1 << 20)}},
                       {"id"});
}

// thread and trace: a conversation, paged.
json conversation_input(std::string_view what)
{
  json doc = id_input(what);
  doc["properties"]["cursor"] = cursor_property();
  return doc;
}

json read_output()
{
  return schema::from_operation(ops::read_output_schema());
}
json peek_output()
{
  return schema::from_operation(ops::peek_output_schema());
}

Result<ToolOutput> run_read(ToolCall& call)
{
  ops::ReadRequest request;
  request.id = arg_string(call.args, "id").value_or("");
  // The answer is built inside the read, so a failure before it keeps the message unread.
  std::optional<ToolOutput> out;
  const ops::ReadDeliver deliver = [&](const ops::ReadResult& result) -> Result<void> {
    ops::ReadResult cut = result;
    cut.message = shaped(call, std::move(cut.message));
    out = output_of(cut);
    return {};
  };
  TRY(ops::read(call.session, request, deliver));
  return std::move(*out);
}

Result<ToolOutput> run_peek(ToolCall& call)
{
  ops::PeekRequest request;
  request.id = arg_string(call.args, "id").value_or("");
  TRY_ASSIGN(ops::PeekResult result, ops::peek(call.session, request));
  result.message = shaped(call, std::move(result.message));
  return output_of(result);
}

// A conversation's messages (thread, trace) with their bodies cut, paged by the call's cursor.
template <class R, class Messages>
Result<ToolOutput> conversation(const ToolCall& call, R result, Messages messages_of)
{
  for (mail::Message& message : messages_of(result)) {
    message = shaped(call, std::move(message));
  }
  return whole_list_output(call, std::move(result), messages_of);
}

Result<ToolOutput> run_thread(ToolCall& call)
{
  ops::ThreadRequest request;
  request.id = arg_string(call.args, "id").value_or("");
  TRY_ASSIGN(ops::ThreadResult result, ops::thread(call.session, request));
  return conversation(call, std::move(result),
                      [](ops::ThreadResult& r) -> std::vector<mail::Message>& { return r.thread.messages; });
}

Result<ToolOutput> run_trace(ToolCall& call)
{
  ops::TraceRequest request;
  request.id = arg_string(call.args, "id").value_or("");
  TRY_ASSIGN(ops::TraceResult result, ops::trace(call.session, request));
  return conversation(call, std::move(result),
                      [](ops::TraceResult& r) -> std::vector<mail::Message>& { return r.trace.messages; });
}

Result<ToolOutput> run_status(ToolCall& call)
{
  ops::StatusRequest request;
  request.id = arg_string(call.args, "id").value_or("");
  TRY_ASSIGN(ops::StatusResult result, ops::status(call.session, request));
  return whole_list_output(
      call, std::move(result), [](ops::StatusResult & r) -> auto& { return r.status.deliveries; });
}

json read_input()
{
  return id_input("the message id (a unique prefix is enough)");
}
json thread_input()
{
  return conversation_input("a thread id, or the id of any message in it");
}
json trace_input()
{
  return conversation_input("a trace id (32 hex digits), or the id of any message in it");
}
json status_input()
{
  return schema::input(json{{"id", schema::string("the message id you sent")}, {"cursor", cursor_property()}},
                       {"id"});
}
json thread_output()
{
  return paged_output_schema(ops::thread_output_schema());
}
json trace_output()
{
  return paged_output_schema(ops::trace_output_schema());
}
json status_output()
{
  return paged_output_schema(ops::status_output_schema());
}

} // namespace

void add_object_tools(std::vector<ToolDef>& tools)
{
  tools.push_back({"read", "Read one message and mark it read for this mailbox.", true, read_input,
                   read_output, run_read});
  tools.push_back(
      {"peek", "Show one message without marking it read.", false, read_input, peek_output, run_peek});
  tools.push_back(
      {"thread", "Show a whole conversation, oldest first.", false, thread_input, thread_output, run_thread});
  tools.push_back({"status", "Per-recipient delivery status of a message: read, archived, acknowledged.",
                   false, status_input, status_output, run_status});
  tools.push_back({"trace", "Every message of a trace (a request and what it caused), as a tree.", false,
                   trace_input, trace_output, run_trace});
}

} // namespace mailroom::mcp
