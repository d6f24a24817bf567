#include "sent.hpp"

#include "acting.hpp"
#include "read_names.hpp"
#include "render/lists.hpp"
#include "text/sanitize.hpp"

namespace mailroom::ops {

Result<SentResult> sent(Session& session, const SentRequest& request)
{
  SentResult result;
  TRY_ASSIGN(result.mailbox, read_target(session, request.mailbox));
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  mail::ListQuery query;
  query.mailbox = result.mailbox;
  query.box = mail::Box::sent;
  TRY(run_list(session, *provider, std::move(query), request, result));
  return result;
}

nlohmann::json to_json(const SentResult& result)
{
  return list_to_json(result.mailbox, result.listed);
}

text::DisplayText to_text(const SentResult& result, const render::Style& style)
{
  if (result.listed.messages.empty()) {
    return text::DisplayText::format("No sent messages for {}{}\n", text::sanitize_line(result.mailbox),
                                     result.filters.any() ? text::DisplayText(" match the filters")
                                                          : text::DisplayText());
  }
  return render::render_sent_table(result.listed.messages, result.now, style) + showing_line(result.listed);
}

nlohmann::json sent_output_schema()
{
  return list_output_schema();
}

} // namespace mailroom::ops
