#pragma once

// A search tree (mail/search_query.hpp) as an FTS5 MATCH expression, the value the bead store
// binds to its search statement. Every term becomes a quoted FTS5 string ("deploy", "build
// failed", "dep"*), so no user text is ever read as FTS5 syntax (column filters, NEAR, ^, +, -);
// the operators come only from the tree (sqlstore/search_syntax.hpp renders it).

#include <string>

#include "mail/search_query.hpp"
#include "sqlstore/search_syntax.hpp"

namespace mailroom::providers::beads {

// FTS5's tokens: terms quoted (a '"' inside doubled), AND/OR, but_not as `(a NOT b)`.
inline constexpr sqlstore::SearchSyntax k_fts5_syntax = {
    .quote = '"', .doubled = "\"", .prefix = "*", .all = " AND ", .any = " OR ", .but_not = " NOT "};

// `query` as FTS5 query syntax.
inline std::string render_fts5_match(const mail::SearchNode& query)
{
  return sqlstore::render_search(query, k_fts5_syntax);
}

} // namespace mailroom::providers::beads
