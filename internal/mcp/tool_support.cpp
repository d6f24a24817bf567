#include "mcp/tool_support.hpp"

#include <charconv>

#include <fmt/format.h>

#include "mail/limits.hpp"
#include "mcp/schema.hpp"
#include "render/json.hpp"
#include "text/base64.hpp"
#include "text/sanitize.hpp"

namespace mailroom::mcp {

Error usage(std::string message, std::string hint)
{
  return make_error(ErrorCode::usage, std::move(message), std::move(hint));
}

Result<std::optional<std::string>> view_arg(const ToolCall& call)
{
  const auto named = arg_string(call.args, "mailbox");
  if (!named || *named == call.env.me.name) {
    return std::optional<std::string>();
  }
  if (!call.env.open_views) {
    return usage(fmt::format("this server acts on mailbox {} only", call.env.me.name),
                 "start the server with 'mailroom mcp --open-views' to view other mailboxes");
  }
  return named;
}

std::size_t max_body_bytes(const ToolCall& call)
{
  const auto given = arg_integer(call.args, "max_body_bytes");
  return given ? static_cast<std::size_t>(*given) : k_default_max_body_bytes;
}

namespace {

// What one message's body and subject may cost in a result together: their JSON strings plus
// their gated text, escapes included (the subject, at most 4 KiB stored, is never cut: the body
// gets what it leaves). The rest of a result (the frame, the other fields) fits in what remains
// of the 48 KiB.
constexpr std::size_t k_message_budget_bytes = 36 * 1024;

void cut_body(mail::Message& message, std::size_t limit)
{
  if (message.body.size() <= limit) {
    return;
  }
  if (message.body_complete) {
    message.cut_body_bytes = message.body.size();
    message.body_complete = false;
  }
  message.body.resize(mail::preview_length(message.body, limit));
}

// What `raw` costs as a JSON string on the wire plus as gated text in the content block.
std::size_t cost(const std::string& raw)
{
  return render::dump_json(json(text::json_text(raw))).size() +
         render::dump_json(json(text::sanitize_text(raw).str())).size();
}

} // namespace

mail::Message shaped(const ToolCall& call, mail::Message message)
{
  cut_body(message, max_body_bytes(call));
  // A body of escapes (control characters, bidi controls) grows several times in JSON and in the
  // gated text: halve it until it and the subject fit the message's share of the result.
  const std::size_t subject = cost(message.subject);
  const std::size_t budget = subject < k_message_budget_bytes ? k_message_budget_bytes - subject : 0;
  while (message.body.size() > 0 && cost(message.body) > budget) {
    cut_body(message, message.body.size() / 2);
  }
  return message;
}

namespace {

constexpr std::string_view k_cursor_version = "mcp1";

Error bad_cursor(std::string_view tool)
{
  return usage("bad cursor",
               fmt::format("pass the next_cursor of an earlier {} result back unchanged", tool));
}

} // namespace

std::string page_cursor(std::string_view tool, std::size_t offset)
{
  return text::base64_encode(fmt::format("{}:{}:{}", k_cursor_version, tool, offset));
}

Result<std::size_t> page_offset(const ToolCall& call)
{
  const auto cursor = arg_string(call.args, "cursor");
  if (!cursor || cursor->empty()) {
    return std::size_t{0};
  }
  const auto plain = cursor->size() <= 128 ? text::base64_decode(*cursor) : std::nullopt;
  const std::string prefix = fmt::format("{}:{}:", k_cursor_version, call.tool);
  if (!plain || plain->size() <= prefix.size() || plain->compare(0, prefix.size(), prefix) != 0) {
    return bad_cursor(call.tool);
  }
  std::size_t offset = 0;
  const char* first = plain->data() + prefix.size();
  const char* last = plain->data() + plain->size();
  const auto [end, ec] = std::from_chars(first, last, offset);
  if (ec != std::errc() || end != last) {
    return bad_cursor(call.tool);
  }
  return offset;
}

json cursor_property()
{
  return schema::string("an earlier result's next_cursor: its next page");
}

json paged_output_schema(const json& operation)
{
  return schema::from_operation(operation, {"total", "has_more", "next_cursor"});
}

ops::LimitRequest paged_limit(const ToolCall& call, std::size_t offset)
{
  ops::LimitRequest limit = limit_request(call);
  limit.limit = offset + limit.limit.value_or(mail::k_default_list_limit);
  return limit;
}

ops::LimitRequest limit_request(const ToolCall& call)
{
  ops::LimitRequest limit;
  if (const auto given = arg_integer(call.args, "limit")) {
    limit.limit = static_cast<std::size_t>(*given);
  }
  return limit;
}

json filter_properties()
{
  return json{
      {"from", schema::string("only messages from this mailbox")},
      {"to", schema::string("only messages to this mailbox (to or cc)")},
      {"type", schema::strings("only messages of these types")},
      {"priority", schema::enumeration("only this priority", {"urgent", "high", "normal", "low", "backlog"})},
      {"since", schema::string("created at or after: a time (RFC 3339) or an age such as 2h")},
      {"until", schema::string("created before: a time or an age")},
      {"unread", schema::boolean("only unread")},
      {"archived", schema::boolean("only archived")},
      {"thread", schema::string("only this thread (a thread id, or a message id in it)")}};
}

ops::FilterRequest filter_request(const ToolCall& call)
{
  ops::FilterRequest filters;
  const json& args = call.args;
  filters.from = arg_string(args, "from");
  filters.to = arg_string(args, "to");
  filters.types = arg_strings(args, "type");
  filters.priority = arg_string(args, "priority");
  filters.since = arg_string(args, "since");
  filters.until = arg_string(args, "until");
  filters.unread = arg_flag(args, "unread");
  filters.archived = arg_flag(args, "archived");
  filters.thread = arg_string(args, "thread");
  return filters;
}

} // namespace mailroom::mcp
