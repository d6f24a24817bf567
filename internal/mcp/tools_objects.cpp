// One message or one conversation: read, peek, thread, status, trace.

#include <fmt/format.h>

#include "mcp/schema.hpp"
#include "mcp/tool_list.hpp"
#include "mcp/tool_support.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "render/trace.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"

namespace mailroom::mcp {

namespace {

json id_input(std::string_view what)
{
  return schema::input(json{{"id", schema::string(what)},
                            {"max_body_bytes",
                             schema::integer("cut the body to this many bytes (default 16384)", 0, 1 << 20)}},
                       {"id"});
}

json one_message_output()
{
  return schema::output(json{{"message", schema::message()}}, {"message"});
}

Result<ToolOutput> one_message(ToolCall& call, bool mark_read)
{
  TRY_ASSIGN(const mail::MessageId id, call.provider.resolve_id(arg_string(call.args, "id").value_or("")));
  const mail::Mailbox& me = call.env.me.name;
  mail::Message message;
  if (mark_read) {
    // The answer is built inside the read, so a failure before it keeps the message unread.
    const mail::DeliverFn deliver = [&](const mail::Message& got) -> Result<void> {
      message = got;
      if (message.state) {
        message.state->read = true;
      }
      return {};
    };
    TRY(call.provider.read(mail::Actor{me, me}, id, deliver));
  } else {
    TRY_ASSIGN(message, call.provider.get(me, id));
  }
  message = shaped(call, std::move(message));
  json doc = render::json_document();
  doc["mailbox"] = me;
  doc["message"] = render::message_to_json(message);
  return ToolOutput{std::move(doc), render::render_message_view(message, call.env.clock->now())};
}

Result<ToolOutput> run_read(ToolCall& call)
{
  return one_message(call, true);
}
Result<ToolOutput> run_peek(ToolCall& call)
{
  return one_message(call, false);
}

// A document listing `messages` (oldest first), cut to the first `keep`.
struct Conversation {
  json base;
  std::vector<mail::Message> messages;
  text::DisplayText title;
  bool tree = false; // trace: a tree; thread: the thread view
};

ToolOutput conversation_output(const ToolCall& call, const Conversation& conv, std::size_t keep)
{
  json doc = conv.base;
  doc["messages"] = json::array();
  std::vector<mail::Message> kept;
  for (std::size_t i = 0; i < conv.messages.size() && i < keep; ++i) {
    kept.push_back(shaped(call, conv.messages[i]));
    doc["messages"].push_back(render::message_to_json(kept.back()));
  }
  doc["total"] = conv.messages.size();
  doc["has_more"] = kept.size() < conv.messages.size();
  text::DisplayText text = conv.title;
  text += conv.tree ? render::render_trace_tree(kept)
                    : render::render_thread_view(doc.value("thread_id", ""), kept);
  return ToolOutput{std::move(doc), std::move(text)};
}

ToolOutput conversation(ToolCall& call, Conversation conv)
{
  ToolOutput out = conversation_output(call, conv, conv.messages.size());
  out.cut = [conv = std::move(conv), &call](std::size_t keep) {
    return conversation_output(call, conv, keep);
  };
  return out;
}

Result<ToolOutput> run_thread(ToolCall& call)
{
  const std::string typed = arg_string(call.args, "id").value_or("");
  const mail::Mailbox& me = call.env.me.name;
  auto result = call.provider.thread(me, typed);
  if (!result.ok() && result.error().code == ErrorCode::not_found) {
    auto full = call.provider.resolve_id(typed);
    if (full.ok()) {
      result = call.provider.thread(me, *full);
    } else if (full.error().code != ErrorCode::not_found) {
      return std::move(full).error();
    }
  }
  TRY_ASSIGN(mail::ThreadResult thread, std::move(result));
  json base = render::json_document();
  base["thread_id"] = thread.thread_id;
  base["mailbox"] = me;
  return conversation(call, Conversation{std::move(base), std::move(thread.messages), {}, false});
}

bool is_trace_id(std::string_view id)
{
  return id.size() == 32 && id.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

Result<ToolOutput> run_trace(ToolCall& call)
{
  const std::string typed = arg_string(call.args, "id").value_or("");
  std::string id = typed;
  if (!is_trace_id(id)) {
    auto resolved = call.provider.resolve_id(id);
    if (resolved.ok()) {
      id = *resolved;
    } else if (resolved.error().code != ErrorCode::not_found) {
      return std::move(resolved).error();
    }
  }
  auto result = call.provider.trace(call.env.me.name, id);
  if (!result.ok() && result.error().code == ErrorCode::not_found) {
    return make_error(ErrorCode::not_found,
                      fmt::format("no trace or message \"{}\"", text::cap_for_echo(typed)));
  }
  TRY_ASSIGN(mail::TraceResult trace, std::move(result));
  json base = render::json_document();
  base["trace_id"] = trace.trace_id;
  base["mailbox"] = call.env.me.name;
  text::DisplayText title = text::DisplayText::format("Trace {}\n", text::sanitize_line(trace.trace_id));
  return conversation(call, Conversation{std::move(base), std::move(trace.messages), std::move(title), true});
}

json optional_time(const std::optional<mail::UnixMillis>& when)
{
  return when ? json(render::format_rfc3339(*when)) : json(nullptr);
}

Result<ToolOutput> run_status(ToolCall& call)
{
  TRY_ASSIGN(const mail::MessageId id, call.provider.resolve_id(arg_string(call.args, "id").value_or("")));
  TRY_ASSIGN(mail::StatusResult status, call.provider.status(id));
  json doc = render::json_document();
  doc["mailbox"] = call.env.me.name;
  doc["id"] = id;
  doc["from"] = status.message.from;
  doc["sender_uid"] = status.message.sender_uid;
  doc["sender_host"] = status.message.sender_host;
  doc["recipients"] = json::array();
  for (const auto& r : status.deliveries) {
    doc["recipients"].push_back({{"recipient", r.recipient},
                                 {"kind", r.kind},
                                 {"delivered_at", render::format_rfc3339(r.delivered_at)},
                                 {"read_at", optional_time(r.read_at)},
                                 {"archived_at", optional_time(r.archived_at)},
                                 {"ack_state", std::string(mail::to_string(r.ack_state))},
                                 {"acked_at", optional_time(r.acked_at)},
                                 {"attempts", r.attempts},
                                 {"last_attempt_at", optional_time(r.last_attempt_at)},
                                 {"acted_by", r.acted_by ? json(*r.acted_by) : json(nullptr)}});
  }
  text::DisplayText text = text::DisplayText::format("Message {} from {}\n", text::sanitize_line(id),
                                                     text::sanitize_line(status.message.from));
  text += render::render_status_table(status.deliveries);
  return ToolOutput{std::move(doc), std::move(text)};
}

json conversation_output_schema(std::string_view key)
{
  return schema::output(json{{std::string(key), schema::any_string()},
                             {"messages", schema::message_list()},
                             {"total", schema::count()},
                             {"has_more", json{{"type", "boolean"}}}},
                        {std::string(key), "messages"});
}

json read_input()
{
  return id_input("the message id (a unique prefix is enough)");
}
json thread_input()
{
  return id_input("a thread id, or the id of any message in it");
}
json trace_input()
{
  return id_input("a trace id (32 hex digits), or the id of any message in it");
}
json status_input()
{
  return schema::input(json{{"id", schema::string("the message id you sent")}}, {"id"});
}
json thread_output()
{
  return conversation_output_schema("thread_id");
}
json trace_output()
{
  return conversation_output_schema("trace_id");
}
json status_output()
{
  return schema::output(json{{"id", schema::any_string()},
                             {"from", schema::any_string()},
                             {"recipients", json{{"type", "array"}, {"items", json{{"type", "object"}}}}}},
                        {"id", "from", "recipients"});
}

} // namespace

void add_object_tools(std::vector<ToolDef>& tools)
{
  tools.push_back({"read", "Read one message and mark it read for this mailbox.", true, read_input,
                   one_message_output, run_read});
  tools.push_back(
      {"peek", "Show one message without marking it read.", false, read_input, one_message_output, run_peek});
  tools.push_back(
      {"thread", "Show a whole conversation, oldest first.", false, thread_input, thread_output, run_thread});
  tools.push_back({"status", "Per-recipient delivery status of a message: read, archived, acknowledged.",
                   false, status_input, status_output, run_status});
  tools.push_back({"trace", "Every message of a trace (a request and what it caused), as a tree.", false,
                   trace_input, trace_output, run_trace});
}

} // namespace mailroom::mcp
