#include "peek.hpp"

#include "render/json.hpp"
#include "render/render.hpp"
#include "schema.hpp"

namespace mailroom::ops {

Result<PeekResult> peek(Session& session, const PeekRequest& request)
{
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  TRY_ASSIGN(const mail::MessageId id, mail::resolve_id(*provider, request.id));
  TRY_ASSIGN(mail::Message message, provider->get(session.me.name, id));
  return PeekResult{std::move(message), session.clock.now()};
}

nlohmann::json to_json(const PeekResult& result)
{
  nlohmann::json doc = render::json_document();
  doc["message"] = render::message_to_json(result.message);
  return doc;
}

text::DisplayText to_text(const PeekResult& result, const render::Style& /*style*/)
{
  return render::render_message_view(result.message, result.now);
}

nlohmann::json peek_output_schema()
{
  return schema::document({{"message", schema::message()}});
}

} // namespace mailroom::ops
