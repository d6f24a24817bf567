// send and reply, as this server's mailbox; send reaches at most 20 mailboxes (groups and @all
// expanded) unless the server runs with --allow-broadcast; send wait_reply waits for the reply.

#include <fmt/format.h>

#include "mail/audience.hpp"
#include "mail/compose.hpp"
#include "mail/duration.hpp"
#include "mail/limits.hpp"
#include "mail/waiting.hpp"
#include "mcp/schema.hpp"
#include "mcp/tool_list.hpp"
#include "mcp/tool_support.hpp"
#include "mcp/waiting.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"

namespace mailroom::mcp {

namespace {

Result<mail::Priority> priority_arg(const ToolCall& call)
{
  const auto given = arg_string(call.args, "priority");
  if (!given) {
    return mail::Priority::normal;
  }
  const auto priority = mail::parse_priority(*given);
  if (!priority) {
    return usage(fmt::format("invalid priority \"{}\"", text::cap_for_echo(*given)),
                 "use urgent, high, normal, low, backlog or 0-4");
  }
  return *priority;
}

Result<std::optional<mail::Millis>> ttl_arg(const ToolCall& call)
{
  const auto given = arg_string(call.args, "ttl");
  if (!given) {
    return std::optional<mail::Millis>();
  }
  TRY_ASSIGN(const mail::Millis ttl, mail::parse_duration(*given, "ttl"));
  return std::optional<mail::Millis>(ttl);
}

Result<std::optional<std::string>> key_arg(const ToolCall& call)
{
  auto key = arg_string(call.args, "idempotency_key");
  if (key && key->size() > mail::k_max_idempotency_key_bytes) {
    return usage(fmt::format("idempotency key is {} bytes; the limit is {}", key->size(),
                             mail::k_max_idempotency_key_bytes));
  }
  return key;
}

// The broadcast cap: how many mailboxes the send reaches, groups and @all expanded.
Result<void> check_reach(const ToolCall& call, const mail::SendRequest& request)
{
  if (call.env.allow_broadcast) {
    return {};
  }
  std::optional<mail::Directory> directory;
  if (call.provider.capabilities().registry) {
    TRY_ASSIGN(directory, call.provider.directory());
  }
  TRY_ASSIGN(const mail::Audience audience,
             mail::resolve_audience(request.from, request.to, request.cc, directory ? &*directory : nullptr,
                                    *call.env.policy));
  const std::size_t reach = audience.to.size() + audience.cc.size();
  if (reach > k_max_send_mailboxes) {
    return usage(fmt::format("this send reaches {} mailboxes; an MCP send reaches at most {}", reach,
                             k_max_send_mailboxes),
                 "name fewer recipients, or start the server with 'mailroom mcp --allow-broadcast'");
  }
  return {};
}

json waited_reply(ToolCall& call, const mail::MessageId& sent, std::string& text_out, Result<void>& failure)
{
  json keys = json::object();
  auto deadline = wait_deadline(call);
  if (!deadline.ok()) {
    failure = deadline.error();
    return keys;
  }
  auto pipe = CancelPipe::open(call.stop);
  if (!pipe.ok()) {
    failure = pipe.error();
    return keys;
  }
  mail::WaitQuery query;
  query.mailbox = call.env.me.name;
  query.reply_to = sent;
  auto outcome = mail::wait_for(call.provider, query, *deadline, (*pipe)->fd());
  if (!outcome.ok()) {
    failure = outcome.error();
    return keys;
  }
  keys["timed_out"] = outcome->end == mail::WaitEnd::timed_out || outcome->end == mail::WaitEnd::interrupted;
  keys["outcome"] = std::string(mail::outcome_name(outcome->end, true));
  keys["notice"] = outcome->notice ? render::message_to_json(shaped(call, *outcome->notice)) : json(nullptr);
  keys["reply"] = outcome->message ? render::message_to_json(shaped(call, *outcome->message)) : json(nullptr);
  text_out = outcome->message
                 ? std::string(render::render_message_view(shaped(call, *outcome->message)).view())
                 : fmt::format("No reply yet ({}); wait again with the wait tool and reply_to {}\n",
                               keys["outcome"].get<std::string>(), sent);
  return keys;
}

Result<ToolOutput> run_send(ToolCall& call)
{
  mail::SendRequest request;
  request.from = call.env.me.name;
  request.to = arg_strings(call.args, "to");
  request.cc = arg_strings(call.args, "cc");
  request.subject = arg_string(call.args, "subject");
  const auto body = arg_string(call.args, "body");
  if (!body && !request.subject) {
    return usage("missing body", "give \"body\", \"subject\" or both");
  }
  request.body = body.value_or("");
  TRY_ASSIGN(request.priority, priority_arg(call));
  request.type = arg_string(call.args, "type").value_or(std::string(mail::k_default_type));
  request.ack = arg_flag(call.args, "ack");
  TRY_ASSIGN(request.ttl, ttl_arg(call));
  TRY_ASSIGN(request.idempotency_key, key_arg(call));
  if (request.to.empty() && request.cc.empty()) {
    return usage("missing recipient", "give \"to\": a mailbox, @group or a list of them");
  }
  const bool wait_reply = arg_flag(call.args, "wait_reply");
  if (call.args.contains("timeout") && !wait_reply) {
    return usage("timeout needs wait_reply");
  }
  TRY(mail::check_send(request, *call.env.policy));
  TRY(check_reach(call, request));
  TRY_ASSIGN(mail::SendReceipt receipt, call.provider.send(request));
  json doc = render::json_document();
  doc["mailbox"] = call.env.me.name;
  doc["ok"] = true;
  doc["id"] = receipt.message.id;
  doc["thread_id"] = receipt.message.thread_id;
  doc["recipients"] = receipt.recipients;
  doc["ids"] = json::array({receipt.message.id});
  doc["replayed"] = receipt.replayed;
  mail::Message delivered = receipt.message;
  delivered.to = receipt.recipients;
  delivered.cc.clear();
  text::DisplayText text =
      text::DisplayText::format("Sent message {} to {}\n", text::sanitize_line(receipt.message.id),
                                render::addressees(delivered, receipt.recipients.size()));
  if (wait_reply) {
    std::string waited;
    Result<void> failure;
    doc.update(waited_reply(call, receipt.message.id, waited, failure));
    if (!failure.ok()) {
      Error error = failure.error();
      error.message = fmt::format("sent {} but {}", receipt.message.id, error.message);
      return error;
    }
    text += text::sanitize_text(waited);
  }
  return ToolOutput{std::move(doc), std::move(text)};
}

Result<ToolOutput> run_reply(ToolCall& call)
{
  mail::ReplyRequest request;
  request.from = call.env.me.name;
  request.subject = arg_string(call.args, "subject");
  const auto body = arg_string(call.args, "body");
  if (!body && !request.subject) {
    return usage("missing body", "give \"body\", \"subject\" or both");
  }
  request.body = body.value_or("");
  request.reply_all = arg_flag(call.args, "all");
  request.confirmed = request.reply_all && call.env.allow_broadcast;
  TRY_ASSIGN(request.priority, priority_arg(call));
  request.type = arg_string(call.args, "type");
  request.ack = arg_flag(call.args, "ack");
  TRY_ASSIGN(request.ttl, ttl_arg(call));
  TRY_ASSIGN(request.idempotency_key, key_arg(call));
  TRY_ASSIGN(request.id, call.provider.resolve_id(arg_string(call.args, "id").value_or("")));
  TRY_ASSIGN(mail::SendReceipt receipt, call.provider.reply(request));
  json doc = render::json_document();
  doc["mailbox"] = call.env.me.name;
  doc["ok"] = true;
  doc["id"] = receipt.message.id;
  doc["ids"] = json::array({receipt.message.id});
  doc["thread_id"] = receipt.message.thread_id;
  doc["recipients"] = receipt.recipients;
  doc["reply_to"] = request.id;
  doc["replayed"] = receipt.replayed;
  mail::Message delivered = receipt.message;
  delivered.to = receipt.recipients;
  delivered.cc.clear();
  return ToolOutput{std::move(doc),
                    text::DisplayText::format("Replied to {} \u2014 sent message {} to {}\n",
                                              text::sanitize_line(request.id),
                                              text::sanitize_line(receipt.message.id),
                                              render::addressees(delivered, receipt.recipients.size()))};
}

json common_properties()
{
  return json{{"subject", schema::string("the subject (default: the body's first line)")},
              {"body", schema::string("the message text")},
              {"type", schema::string("the message type (default: message; e.g. request, task)")},
              {"priority", schema::enumeration("priority (default normal)",
                                               {"urgent", "high", "normal", "low", "backlog"})},
              {"ttl", schema::string("expire after this long, e.g. 1h")},
              {"ack", schema::boolean("ask the recipients to acknowledge it")},
              {"idempotency_key", schema::string("a retry with the same key sends nothing twice")}};
}

json send_input()
{
  json properties = common_properties();
  properties["to"] = schema::strings("recipients: mailboxes, @group, @all");
  properties["cc"] = schema::strings("copies");
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

json sent_properties()
{
  json strings_array{{"type", "array"}, {"items", json{{"type", "string"}}}};
  return json{{"ok", json{{"type", "boolean"}}},
              {"id", schema::any_string()},
              {"ids", strings_array},
              {"thread_id", schema::any_string()},
              {"recipients", strings_array},
              {"replayed", json{{"type", "boolean"}}}};
}

json send_output()
{
  json properties = sent_properties();
  properties["reply"] = schema::nullable_message();
  properties["notice"] = schema::nullable_message();
  properties["outcome"] = schema::any_string();
  properties["timed_out"] = json{{"type", "boolean"}};
  return schema::output(std::move(properties), {"ok", "id", "thread_id", "recipients"});
}

json reply_output()
{
  json properties = sent_properties();
  properties["reply_to"] = schema::any_string();
  return schema::output(std::move(properties), {"ok", "id", "thread_id", "recipients", "reply_to"});
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
