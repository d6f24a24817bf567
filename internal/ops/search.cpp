#include "search.hpp"

#include "acting.hpp"
#include "errors.hpp"
#include "read_names.hpp"
#include "render/render.hpp"
#include "schema.hpp"
#include "search_snippet.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"

namespace mailroom::ops {

Result<SearchResult> search(Session& session, const SearchRequest& request)
{
  if (request.words.empty()) {
    return usage_error("missing search query", "e.g. mailroom search 'deploy* NOT staging'");
  }
  SearchResult result;
  mail::ListQuery query;
  if (request.mailbox == k_every_mailbox) {
    result.mailbox = std::string(k_every_mailbox);
    query.every_mailbox = true;
  } else {
    TRY_ASSIGN(result.mailbox, read_target(session, request.mailbox));
    query.mailbox = result.mailbox;
  }
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  query.box = mail::Box::search;
  query.search = text::join(request.words, " ");
  query.limit = list_limit(request.limit);
  query.body_bytes = list_body_bytes(request.previews);
  TRY_ASSIGN(query.filters, resolve_filters(session, *provider, request.filters));
  TRY_ASSIGN(result.listed, provider->list(query));
  result.query = std::move(query.search);
  result.now = session.clock.now();
  return result;
}

nlohmann::json to_json(const SearchResult& result)
{
  nlohmann::json doc = list_to_json(result.mailbox, result.listed);
  doc["query"] = text::json_text(result.query);
  // The query parsed when the store ran it; a result built by hand with another one gets the
  // bodies' starts.
  const auto parsed = mail::parse_search_query(result.query);
  const std::vector<std::string> words = parsed.ok() ? wanted_words(*parsed) : std::vector<std::string>{};
  for (std::size_t i = 0; i < result.listed.messages.size(); ++i) {
    doc["messages"][i]["snippet"] =
        text::json_text(search_snippet(result.listed.messages[i].message.body, words));
  }
  return doc;
}

text::DisplayText to_text(const SearchResult& result, const render::Style& style)
{
  if (result.listed.messages.empty()) {
    return text::DisplayText::format("No messages match {}\n",
                                     text::sanitize_line(text::cap_for_echo(result.query)));
  }
  return render::render_inbox_table(messages_of(result.listed), result.now, false, style) +
         showing_line(result.listed);
}

nlohmann::json search_output_schema()
{
  nlohmann::json doc = list_output_schema({{"query", schema::string()}});
  nlohmann::json& found = doc["properties"]["messages"]["items"];
  found["properties"]["snippet"] = schema::string();
  found["required"].push_back("snippet");
  return doc;
}

} // namespace mailroom::ops
