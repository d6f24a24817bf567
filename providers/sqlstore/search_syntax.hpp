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

// `query` in `syntax`: terms quoted, every group (all, any, but_not) in parentheses.
std::string render_search(const mail::SearchNode& query, const SearchSyntax& syntax);

} // namespace mailroom::providers::sqlstore
