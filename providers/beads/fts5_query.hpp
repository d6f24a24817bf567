#pragma once

// A search tree (mail/search_query.hpp) as an FTS5 MATCH expression, the value the bead store
// binds to its search statement. Every term becomes a quoted FTS5 string ("deploy", "build
// failed", "dep"*), so no user text is ever read as FTS5 syntax (column filters, NEAR, ^, +, -);
// the operators come only from the tree.

#include <string>

#include "mail/search_query.hpp"

namespace mailroom::providers::beads {

// `query` as FTS5 query syntax: terms quoted (a '"' inside doubled), AND/OR/NOT groups in
// parentheses, but_not as `(a NOT b)`.
std::string render_fts5_match(const mail::SearchNode& query);

} // namespace mailroom::providers::beads
