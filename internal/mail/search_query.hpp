#pragma once

// The search query language every store supports (contract "Views, search and filters"):
//   words          deploy failed        every word must match (in subject, body or sender)
//   "a phrase"     "build failed"       the words next to each other, in order
//   prefix*        deploy*  "build fa"* a word (or a phrase's last word) that starts so
//   OR             deploy OR release    either side
//   NOT            deploy NOT staging   the left side without the right
//   ( )            (a OR b) c           grouping
// OR, NOT and AND (optional between words) are operators only in capitals; `or` is a word. NOT
// binds to the one term after it and excludes it from the words beside it, so `a b NOT c` is
// (a AND b) but not c; OR binds loosest, so `a b OR c` is (a AND b) OR c.
//
// parse_search_query turns the text into a small tree; each store renders the tree in its own
// syntax (the bead store: an FTS5 MATCH string in which every user term is quoted; PostgreSQL: a
// tsquery), so user input never reaches a store's query syntax except through this tree.

#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"

namespace mailroom::mail {

struct SearchNode {
  enum class Kind {
    term,    // `text` is one word or a phrase (words separated by single spaces)
    all,     // every child matches (AND)
    any,     // at least one child matches (OR)
    but_not, // children[0] matches and children[1] does not
  };
  Kind kind = Kind::term;
  std::string text;    // term: the word or the phrase's words, as typed (UTF-8)
  bool phrase = false; // term: written in double quotes
  bool prefix = false; // term: ends in '*' (the last word is a prefix)
  std::vector<SearchNode> children;

  bool operator==(const SearchNode&) const = default;
};

// The longest query accepted, in bytes, and the deepest nesting of parentheses.
inline constexpr std::size_t k_max_search_query_bytes = 4096;
inline constexpr int k_max_search_depth = 16;

// Parses `text`. Errors: usage saying what is wrong (an empty query, an unterminated or empty
// phrase, a '*' that does not end a word, a word with no letter or digit, OR/AND without a term on
// each side, NOT without a term after it or with nothing to exclude from, unbalanced parentheses,
// too long or too deeply nested).
Result<SearchNode> parse_search_query(std::string_view text);

// The tree written back in the query language (normalised: explicit AND, parentheses around every
// group), for messages and tests.
std::string to_string(const SearchNode& node);

} // namespace mailroom::mail
