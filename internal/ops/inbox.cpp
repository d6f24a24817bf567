#include "inbox.hpp"

#include "acting.hpp"
#include "render/render.hpp"
#include "schema.hpp"
#include "text/sanitize.hpp"

namespace mailroom::ops {

Result<InboxResult> inbox(Session& session, const InboxRequest& request)
{
  InboxResult result;
  result.all = request.all;
  TRY_ASSIGN(result.mailbox, listing_target(session, request.mailbox));
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  mail::ListQuery query;
  query.mailbox = result.mailbox;
  query.include_read = request.all;
  TRY(run_list(session, *provider, std::move(query), request, result));
  return result;
}

nlohmann::json to_json(const InboxResult& result)
{
  nlohmann::json doc = list_to_json(result.mailbox, result.listed);
  doc["unread"] = result.listed.unread;
  return doc;
}

text::DisplayText to_text(const InboxResult& result, const render::Style& style)
{
  if (result.listed.messages.empty()) {
    const text::DisplayText name = text::sanitize_line(result.mailbox);
    if (result.filters.any()) {
      return text::DisplayText::format(
          "No {}messages for {} match the filters\n",
          result.filters.archived ? text::DisplayText("archived ") : text::DisplayText(), name);
    }
    return text::DisplayText::format("No {}messages for {}\n",
                                     result.all ? text::DisplayText() : text::DisplayText("unread "), name);
  }
  return render::render_inbox_table(messages_of(result.listed), result.now,
                                    result.all || result.filters.archived, style) +
         showing_line(result.listed);
}

nlohmann::json inbox_output_schema()
{
  return list_output_schema({{"unread", schema::integer()}});
}

} // namespace mailroom::ops
