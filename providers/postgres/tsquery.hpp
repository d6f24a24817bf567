#pragma once

// The search tree (mail/search_query.hpp) as PostgreSQL tsquery text for to_tsquery('simple', ·),
// rendered by sqlstore/search_syntax.hpp with tsquery's tokens.

#include <string>

#include "mail/search_query.hpp"
#include "sqlstore/search_syntax.hpp"

namespace mailroom::providers::postgres {

// Every term is a quoted lexeme (' and \ doubled), so no byte of the user's query is read as
// tsquery syntax; to_tsquery then splits a term as the search column's parser does (a phrase's
// words become 'a' <-> 'b'). A prefix term is term:* (in a phrase every word becomes a prefix,
// where the bead store's FTS5 makes only the last one). all is &, any is |, but_not is A & !B.
inline constexpr sqlstore::SearchSyntax k_tsquery_syntax = {
    .quote = '\'', .doubled = "'\\", .prefix = ":*", .all = " & ", .any = " | ", .but_not = " & !"};

inline std::string render_tsquery(const mail::SearchNode& query)
{
  return sqlstore::render_search(query, k_tsquery_syntax);
}

} // namespace mailroom::providers::postgres
