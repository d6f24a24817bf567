#include "mcp/tool_support.hpp"

#include <fmt/format.h>

#include "mail/address.hpp"
#include "mail/duration.hpp"
#include "mail/limits.hpp"
#include "mcp/schema.hpp"
#include "render/json.hpp"
#include "render/lists.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"

namespace mailroom::mcp {

Error usage(std::string message, std::string hint)
{
  return make_error(ErrorCode::usage, std::move(message), std::move(hint));
}

Result<mail::Mailbox> mailbox_arg(const std::string& value, std::string_view name)
{
  if (!mail::is_valid_mailbox(value)) {
    TRY(mail::parse_address(value));
    return usage(
        fmt::format("argument \"{}\" takes one mailbox, not \"{}\"", name, text::cap_for_echo(value)));
  }
  return mail::Mailbox(value);
}

std::optional<std::string> arg_string(const json& args, const char* key)
{
  const auto it = args.find(key);
  if (it == args.end() || !it->is_string()) {
    return std::nullopt;
  }
  return it->get<std::string>();
}

std::vector<std::string> arg_strings(const json& args, const char* key)
{
  const auto it = args.find(key);
  if (it == args.end()) {
    return {};
  }
  if (it->is_string()) {
    return {it->get<std::string>()};
  }
  std::vector<std::string> out;
  for (const json& item : *it) {
    out.push_back(item.get<std::string>());
  }
  return out;
}

bool arg_flag(const json& args, const char* key)
{
  const auto it = args.find(key);
  return it != args.end() && it->is_boolean() && it->get<bool>();
}

std::optional<std::int64_t> arg_integer(const json& args, const char* key)
{
  const auto it = args.find(key);
  if (it == args.end() || !it->is_number()) {
    return std::nullopt;
  }
  return it->get<std::int64_t>();
}

Result<mail::Mailbox> view_mailbox(const ToolCall& call)
{
  const auto named = arg_string(call.args, "mailbox");
  if (!named || *named == call.env.me.name) {
    return call.env.me.name;
  }
  if (!call.env.open_views) {
    return usage(fmt::format("this server acts on mailbox {} only", call.env.me.name),
                 "start the server with 'mailroom mcp --open-views' to view other mailboxes");
  }
  return mailbox_arg(*named, "mailbox");
}

std::size_t max_body_bytes(const ToolCall& call)
{
  const auto given = arg_integer(call.args, "max_body_bytes");
  return given ? static_cast<std::size_t>(*given) : k_default_max_body_bytes;
}

namespace {

// What one body may cost in a result: its JSON string plus its gated text, escapes included.
constexpr std::size_t k_body_budget_bytes = 36 * 1024;

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

std::size_t cost(const std::string& body)
{
  return json(text::json_text(body)).dump().size() + json(text::sanitize_text(body).str()).dump().size();
}

} // namespace

mail::Message shaped(const ToolCall& call, mail::Message message)
{
  cut_body(message, max_body_bytes(call));
  // A body of escapes (control characters) grows several times in JSON and in the gated text:
  // halve it until it fits the result's bound.
  while (message.body.size() > 0 && cost(message.body) > k_body_budget_bytes) {
    cut_body(message, message.body.size() / 2);
  }
  return message;
}

std::size_t list_limit(const ToolCall& call)
{
  const auto given = arg_integer(call.args, "limit");
  return given ? static_cast<std::size_t>(*given) : mail::k_default_list_limit;
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

Result<mail::Filters> filters_from(const ToolCall& call)
{
  mail::Filters filters;
  const json& args = call.args;
  if (const auto from = arg_string(args, "from")) {
    TRY_ASSIGN(filters.from, mailbox_arg(*from, "from"));
  }
  if (const auto to = arg_string(args, "to")) {
    TRY_ASSIGN(filters.to, mailbox_arg(*to, "to"));
  }
  for (const std::string& typed : arg_strings(args, "type")) {
    TRY_ASSIGN(const mail::MessageType type, call.env.policy->types.resolve(typed));
    filters.types.push_back(type.name);
  }
  if (const auto priority = arg_string(args, "priority")) {
    filters.priority = mail::parse_priority(*priority);
  }
  const mail::UnixMillis now = call.env.clock->now();
  if (const auto since = arg_string(args, "since")) {
    TRY_ASSIGN(filters.since, mail::parse_time_or_age(*since, now, "since"));
  }
  if (const auto until = arg_string(args, "until")) {
    TRY_ASSIGN(filters.until, mail::parse_time_or_age(*until, now, "until"));
  }
  filters.unread = arg_flag(args, "unread");
  filters.archived = arg_flag(args, "archived");
  if (const auto thread = arg_string(args, "thread")) {
    if (text::starts_with(*thread, "thread-")) {
      filters.thread = *thread;
    } else {
      TRY_ASSIGN(const mail::MessageId id, call.provider.resolve_id(*thread));
      TRY_ASSIGN(const mail::Message message, call.provider.get(call.env.me.name, id));
      filters.thread = message.thread_id;
    }
  }
  return filters;
}

ToolOutput list_output(const ToolCall& call, const ListShape& shape, std::size_t keep)
{
  json doc = render::json_document();
  doc["mailbox"] = shape.mailbox;
  doc["messages"] = json::array();
  std::vector<mail::ListedMessage> kept;
  for (std::size_t i = 0; i < shape.listed.messages.size() && i < keep; ++i) {
    kept.push_back(shape.listed.messages[i]);
    kept.back().message = shaped(call, kept.back().message);
    json message = render::message_to_json(kept.back().message);
    if (kept.back().summary) {
      message["summary"] = render::summary_to_json(*kept.back().summary);
    }
    doc["messages"].push_back(std::move(message));
  }
  doc["total"] = shape.listed.total;
  doc["has_more"] = shape.listed.total > static_cast<std::int64_t>(kept.size());
  if (shape.extra.is_object()) {
    doc.update(shape.extra);
  }
  text::DisplayText text = shape.render(kept, call);
  if (doc["has_more"].get<bool>()) {
    text += text::DisplayText::format("Showing {} of {}; a larger limit or narrower filters show more\n",
                                      kept.size(), shape.listed.total);
  }
  return ToolOutput{std::move(doc), std::move(text)};
}

} // namespace mailroom::mcp
