// reply: answer a message (send.hpp's ReplyRequest), its JSON, text and output schema.

#include "errors.hpp"
#include "mail/duration.hpp"
#include "mail/provider.hpp"
#include "render/json.hpp"
#include "schema.hpp"
#include "send.hpp"
#include "send_options.hpp"
#include "text/sanitize.hpp"
#include "types.hpp"
#include "wake.hpp"

namespace mailroom::ops {

Result<ReplyResult> reply(Session& session, const ReplyRequest& request)
{
  TRY(refuse_empty_message(request.subject, request.body));
  mail::ReplyRequest message;
  message.seen_via = session.seen_via();
  message.from = session.me.name;
  if (request.subject && !request.subject->empty()) {
    message.subject = request.subject; // an empty subject is none: "Re: " the original's
  }
  message.body = request.body;
  message.reply_all = request.all;
  message.confirmed = request.confirmed;
  TRY_ASSIGN(message.priority, resolve_priority(request.sending));
  message.wake = wake_when(session, request.sending.wake);
  message.type = request.sending.type;
  if (request.sending.ttl) {
    TRY_ASSIGN(message.ttl, mail::parse_duration(*request.sending.ttl, "--ttl"));
  }
  message.ack = request.sending.ack;
  TRY_ASSIGN(message.idempotency_key, resolve_idempotency_key(session, request.sending.idempotency_key));

  TRY_ASSIGN(mail::Provider * provider, session.provider());
  TRY_ASSIGN(message.id, mail::resolve_id(*provider, request.id));
  ReplyResult result;
  result.reply_to = message.id;
  TRY_ASSIGN(result.receipt, provider->reply(message));
  if (auto notice =
          request.sending.type ? unknown_type_notice(session.policy, *request.sending.type) : std::nullopt) {
    session.tell(notice->code, notice->message);
    result.warnings.push_back(std::move(*notice));
  }
  return result;
}

nlohmann::json to_json(const ReplyResult& result)
{
  nlohmann::json doc = render::json_document();
  doc["ok"] = true;
  doc["id"] = result.receipt.message.id;
  doc["ids"] = {result.receipt.message.id};
  doc["thread_id"] = result.receipt.message.thread_id;
  doc["recipients"] = result.receipt.recipients;
  doc["reply_to"] = result.reply_to;
  doc["replayed"] = result.receipt.replayed;
  if (!result.warnings.empty()) {
    doc["warnings"] = warnings_to_json(result.warnings);
  }
  return doc;
}

text::DisplayText to_text(const ReplyResult& result, const render::Style& /*style*/)
{
  return text::DisplayText::format("Replied to {} \u2014 sent message {} to {}\n",
                                   text::sanitize_line(result.reply_to),
                                   text::sanitize_line(result.receipt.message.id),
                                   recipients_summary(result.receipt.message, result.receipt.recipients));
}

nlohmann::json reply_output_schema()
{
  using namespace schema;
  return document({{"ok", boolean()},
                   {"id", string()},
                   {"ids", array_of(string())},
                   {"thread_id", string()},
                   {"recipients", array_of(string())},
                   {"reply_to", string()},
                   {"replayed", boolean()}},
                  {{"warnings", warnings()}});
}

} // namespace mailroom::ops
