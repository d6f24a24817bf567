#pragma once

// A search tree (mail/search_query.hpp) as the text an engine's full-text query reads, rendered by
// one function from the engine's table of tokens. Every term becomes a quoted string, so no byte
// of the user's query is read as the engine's syntax; the operators come only from the tree.

#include <string>
#include <string_view>

#include "mail/search_query.hpp"

namespace mailroom::providers::sqlstore {

// The tokens of one engine's query syntax.
struct SearchSyntax {
  char quote;               // around every term
  std::string_view doubled; // the characters a term doubles (a '"' inside "..." becomes "")
  std::string_view prefix;  // after a prefix term's closing quote
  std::string_view all;     // between the children of an `all` group
  std::string_view any;     // between the children of an `any` group
  std::string_view but_not; // between the two children of `but_not`
};

// The engines' tables, the one place each query syntax is written.
//
// FTS5 (the bead store's MATCH): terms quoted ("deploy", "build failed", "dep"*, a '"' inside
// doubled), so no user text is read as FTS5 syntax (column filters, NEAR, ^, +, -); AND, OR, and
// but_not as `(a NOT b)`.
inline constexpr SearchSyntax k_fts5_syntax = {
    .quote = '"', .doubled = "\"", .prefix = "*", .all = " AND ", .any = " OR ", .but_not = " NOT "};

// tsquery (PostgreSQL's to_tsquery('simple', ·)): every term a quoted lexeme (' and \ doubled), so
// no byte of the user's query is read as tsquery syntax; to_tsquery then splits a term as the
// search column's parser does (a phrase's words become 'a' <-> 'b'). A prefix term is term:* (in a
// phrase every word becomes a prefix, where FTS5 makes only the last one). all is &, any is |,
// but_not is A & !B.
inline constexpr SearchSyntax k_tsquery_syntax = {
    .quote = '\'', .doubled = "'\\", .prefix = ":*", .all = " & ", .any = " | ", .but_not = " & !"};

// `query` in `syntax`: terms quoted, every group (all, any, but_not) in parentheses.
std::string render_search(const mail::SearchNode& query, const SearchSyntax& syntax);

} // namespace mailroom::providers::sqlstore
