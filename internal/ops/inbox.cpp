#include "inbox.hpp"

#include <algorithm>

#include "acting.hpp"
#include "mail/hook_order.hpp"
#include "read_names.hpp"
#include "render/render.hpp"
#include "schema.hpp"
#include "text/sanitize.hpp"

namespace mailroom::ops {

Result<InboxResult> inbox(Session& session, const InboxRequest& request)
{
  InboxResult result;
  result.all = request.all;
  TRY_ASSIGN(result.mailbox, read_target(session, request.mailbox));
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  mail::ListQuery query;
  query.mailbox = result.mailbox;
  query.include_read = request.all || request.awaiting;
  if (!request.awaiting) {
    TRY(run_list(session, *provider, std::move(query), request, result));
    return result;
  }
  // What is owed is read or unread: the whole inbox, kept to the owed deliveries, then cut.
  result.awaiting = true;
  InboxRequest whole = request;
  whole.limit = LimitRequest{std::nullopt, true};
  TRY(run_list(session, *provider, std::move(query), whole, result));
  std::vector<mail::ListedMessage>& messages = result.listed.messages;
  messages.erase(
      std::remove_if(messages.begin(), messages.end(),
                     [](const mail::ListedMessage& listed) { return !mail::awaits_reply(listed.message); }),
      messages.end());
  result.listed.total = static_cast<std::int64_t>(messages.size());
  if (const std::optional<std::size_t> limit = list_limit(request.limit); limit && messages.size() > *limit) {
    messages.resize(*limit);
  }
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
    if (result.awaiting) {
      return text::DisplayText::format("Nothing awaits a reply or an ack from {}\n", name);
    }
    if (result.filters.any()) {
      return text::DisplayText::format(
          "No {}messages for {} match the filters\n",
          result.filters.archived ? text::DisplayText("archived ") : text::DisplayText(), name);
    }
    return text::DisplayText::format("No {}messages for {}\n",
                                     result.all ? text::DisplayText() : text::DisplayText("unread "), name);
  }
  return render::render_inbox_table(messages_of(result.listed), result.now,
                                    result.all || result.awaiting || result.filters.archived, style) +
         showing_line(result.listed);
}

nlohmann::json inbox_output_schema()
{
  return list_output_schema({{"unread", schema::integer()}});
}

} // namespace mailroom::ops
