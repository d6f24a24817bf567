#pragma once

// search: full-text search over subject, body and sender of the mail a mailbox sent or received,
// best match first (the query language is in mail/search_query.hpp).

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "filters.hpp"
#include "render/table.hpp"
#include "session.hpp"

namespace mailroom::ops {

// SearchRequest::mailbox for a search of every mailbox's mail (the operator's view: messages
// without anyone's read state; "mailbox": "*" in the result).
inline constexpr std::string_view k_every_mailbox = "*";

struct SearchRequest {
  std::vector<std::string> words;     // joined with spaces: `search deploy failed`
  std::optional<std::string> mailbox; // whose mail; default the caller (another's is a view);
                                      // k_every_mailbox: everyone's
  LimitRequest limit;
  FilterRequest filters;
  bool previews = false; // load only the start of each body (enough for to_text)
};

struct SearchResult {
  mail::Mailbox mailbox;
  std::string query;
  mail::ListResult listed;
  mail::UnixMillis now = 0;
};

// Errors: usage (no words), those of listing_target and resolve_filters, the provider's errors
// (usage for a malformed query).
Result<SearchResult> search(Session& session, const SearchRequest& request);

// list_to_json plus "query", and each message's "snippet" (search_snippet.hpp).
nlohmann::json to_json(const SearchResult& result);
text::DisplayText to_text(const SearchResult& result, const render::Style& style);
nlohmann::json search_output_schema();

} // namespace mailroom::ops
