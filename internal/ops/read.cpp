#include "read.hpp"

#include "acting.hpp"
#include "mail/audience.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "schema.hpp"

namespace mailroom::ops {

Result<ReadResult> read(Session& session, const ReadRequest& request, const ReadDeliver& deliver)
{
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  TRY_ASSIGN(const mail::MessageId id, mail::resolve_id(*provider, request.id));
  const mail::UnixMillis now = session.clock.now();
  const mail::DeliverFn on_read = [&](const mail::Message& message) -> Result<void> {
    return deliver(ReadResult{message, now});
  };
  std::string reader;
  TRY_ASSIGN(mail::Message message,
             act_on(session, *provider, id, request.for_name, [&](const mail::Actor& actor) {
               reader = actor.mailbox;
               return provider->read(actor, id, on_read);
             }));
  if (const auto note = mail::sender_read_note(message, reader)) {
    session.tell("sender_read", *note); // the sender's read was a peek (contract "Gas City, both ways")
  }
  return ReadResult{std::move(message), now};
}

nlohmann::json to_json(const ReadResult& result)
{
  mail::Message message = result.message;
  if (message.state) {
    message.state->read = true; // a sender who is not a recipient has no state and keeps none
  }
  nlohmann::json doc = render::json_document();
  doc["message"] = render::message_to_json(message);
  return doc;
}

text::DisplayText to_text(const ReadResult& result, const render::Style& /*style*/)
{
  return render::render_message_view(result.message, result.now);
}

nlohmann::json read_output_schema()
{
  using namespace schema;
  return document({{"message", schema::message()}});
}

} // namespace mailroom::ops
