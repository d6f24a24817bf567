// wait: the first message that matches, within `timeout` (default 30 s, at most 55 s). A
// cancelled wait returns nothing and, with read=true, marks nothing: the take checks the
// cancellation first and marks read in the same step that builds the answer.

#include <fmt/format.h>

#include "mail/duration.hpp"
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

Result<ToolOutput> run_wait(ToolCall& call)
{
  TRY_ASSIGN(const auto deadline, wait_deadline(call));
  const mail::Mailbox& me = call.env.me.name;
  mail::WaitQuery query;
  query.mailbox = me;
  for (const std::string& typed : arg_strings(call.args, "type")) {
    TRY_ASSIGN(const mail::MessageType type, call.env.policy->types.resolve(typed));
    query.types.push_back(type.name);
  }
  if (const auto from = arg_string(call.args, "from")) {
    TRY_ASSIGN(query.from, mailbox_arg(*from, "from"));
  }
  if (const auto since = arg_string(call.args, "since")) {
    TRY_ASSIGN(query.since, mail::parse_time_or_age(*since, call.env.clock->now(), "since"));
  }
  if (const auto thread = arg_string(call.args, "thread")) {
    if (text::starts_with(*thread, "thread-")) {
      query.thread = *thread;
    } else {
      TRY_ASSIGN(const mail::MessageId id, call.provider.resolve_id(*thread));
      TRY_ASSIGN(const mail::Message message, call.provider.get(me, id));
      query.thread = message.thread_id;
    }
  }
  if (const auto reply_to = arg_string(call.args, "reply_to")) {
    TRY_ASSIGN(query.reply_to, call.provider.resolve_id(*reply_to));
  }
  if (const auto after = arg_string(call.args, "after")) {
    TRY_ASSIGN(const mail::MessageId id, call.provider.resolve_id(*after));
    TRY_ASSIGN(const mail::Message message, call.provider.get(me, id));
    query.after = mail::WaitQuery::Cursor{message.created_at, message.id};
  }
  const bool reply_to = query.reply_to.has_value();
  const bool read = arg_flag(call.args, "read");
  TRY_ASSIGN(const auto pipe, CancelPipe::open(call.stop));
  mail::WaitSettings settings;
  std::optional<mail::Message> taken;
  if (read && !reply_to) {
    settings.take = [&](const mail::Message& found) -> Result<bool> {
      if (call.stop.stop_requested()) {
        return false; // cancelled: mark nothing; the wait ends on the interrupt
      }
      const mail::DeliverFn deliver = [&](const mail::Message& message) -> Result<void> {
        taken = message;
        return {};
      };
      TRY_ASSIGN(const std::optional<mail::Message> got,
                 call.provider.take(mail::Actor{me, me}, found.id, deliver));
      return got.has_value();
    };
  }
  TRY_ASSIGN(mail::WaitOutcome outcome, mail::wait_for(call.provider, query, deadline, pipe->fd(), settings));
  if (outcome.end == mail::WaitEnd::interrupted) {
    return make_error(ErrorCode::timeout, "the wait was cancelled");
  }
  std::optional<mail::Message> message = outcome.message;
  if (outcome.end == mail::WaitEnd::found && read) {
    if (taken) {
      message = taken;
    } else if (reply_to) {
      const mail::DeliverFn deliver = [&](const mail::Message& got) -> Result<void> {
        message = got;
        return {};
      };
      TRY(call.provider.read(mail::Actor{me, me}, outcome.message->id, deliver));
    }
    if (message && message->state) {
      message->state->read = true;
    }
  }
  json doc = render::json_document();
  doc["mailbox"] = me;
  doc["message"] = message ? render::message_to_json(shaped(call, *message)) : json(nullptr);
  doc["timed_out"] = outcome.end == mail::WaitEnd::timed_out;
  doc["outcome"] = std::string(mail::outcome_name(outcome.end, reply_to));
  doc["notice"] = outcome.notice ? render::message_to_json(shaped(call, *outcome.notice)) : json(nullptr);
  text::DisplayText text =
      message ? render::render_message_view(shaped(call, *message), call.env.clock->now())
              : text::DisplayText::format("Nothing arrived ({})\n",
                                          text::sanitize_line(doc["outcome"].get<std::string>()));
  return ToolOutput{std::move(doc), std::move(text)};
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
  return schema::output(
      json{{"message", schema::nullable_message()},
           {"timed_out", json{{"type", "boolean"}}},
           {"outcome", schema::enumeration("how the wait ended", {"replied", "found", "set_aside",
                                                                  "escalated", "expired", "timed_out"})},
           {"notice", schema::nullable_message()}},
      {"message", "timed_out", "outcome"});
}

} // namespace

void add_wait_tools(std::vector<ToolDef>& tools)
{
  tools.push_back({"wait",
                   "Wait for the next matching message (default 30s, at most 55s); read=true takes it.", true,
                   wait_input, wait_output, run_wait});
}

} // namespace mailroom::mcp
