#include "mail/search_query.hpp"

#include <string>

#include <doctest/doctest.h>

using mailroom::mail::parse_search_query;
using mailroom::mail::SearchNode;

namespace {

// The normalised form of `text`, or "error: <message>".
std::string parsed(std::string_view text)
{
  const auto node = parse_search_query(text);
  if (!node.ok()) {
    CHECK(node.error().code == mailroom::ErrorCode::usage);
    return "error: " + node.error().message;
  }
  return to_string(node.value());
}

} // namespace

TEST_SUITE("mailroom::mail::search_query")
{
  TEST_CASE("words, phrases and prefixes")
  {
    CHECK(parsed("deploy") == "deploy");
    CHECK(parsed("  deploy   failed ") == "(deploy AND failed)");
    CHECK(parsed("deploy AND failed") == "(deploy AND failed)");
    CHECK(parsed("\"build  failed\"") == "\"build failed\"");
    CHECK(parsed("dep*") == "dep*");
    CHECK(parsed("\"build fa\"*") == "\"build fa\"*");
    CHECK(parsed("caf\xC3\xA9") == "caf\xC3\xA9");
    // Lower-case operators are words; punctuation inside a word stays (the store's tokenizer splits it).
    CHECK(parsed("or not and") == "(or AND not AND and)");
    CHECK(parsed("foo-bar subject:x") == "(foo-bar AND subject:x)");
    const auto node = parse_search_query("\"a b\"*");
    REQUIRE(node.ok());
    CHECK(node->kind == SearchNode::Kind::term);
    CHECK(node->phrase);
    CHECK(node->prefix);
    CHECK(node->text == "a b");
  }

  TEST_CASE("OR binds loosest, NOT excludes from the words beside it")
  {
    CHECK(parsed("a b OR c") == "((a AND b) OR c)");
    CHECK(parsed("a OR b OR c") == "(a OR b OR c)");
    CHECK(parsed("a NOT b") == "(a NOT b)");
    CHECK(parsed("a b NOT c NOT d") == "((a AND b) NOT (c OR d))");
    CHECK(parsed("NOT c a") == "(a NOT c)");
    CHECK(parsed("a NOT b OR c") == "((a NOT b) OR c)");
    CHECK(parsed("(a OR b) c") == "((a OR b) AND c)");
    CHECK(parsed("a NOT (b OR c)") == "(a NOT (b OR c))");
    CHECK(parsed("((a))") == "a");
  }

  TEST_CASE("malformed queries say why")
  {
    CHECK(parsed("") == "error: bad search query: it is empty");
    CHECK(parsed("   ") == "error: bad search query: it is empty");
    CHECK(parsed("\"unterminated") == "error: bad search query: a phrase has no closing \"");
    CHECK(parsed("\"\"") == "error: bad search query: an empty phrase (\"\") matches nothing");
    CHECK(parsed("*") == "error: bad search query: a * must follow the start of a word (deploy*)");
    CHECK(parsed("*foo") == "error: bad search query: \"*foo\": a * may only end a word (prefix*)");
    CHECK(parsed("fo*o") == "error: bad search query: \"fo*o\": a * may only end a word (prefix*)");
    CHECK(parsed("--") == "error: bad search query: \"--\" has no letter or digit to search for");
    CHECK(parsed("OR a") == "error: bad search query: OR needs a term on each side");
    CHECK(parsed("a OR") == "error: bad search query: OR needs a term on each side");
    CHECK(parsed("a OR OR b") == "error: bad search query: OR needs a term on each side");
    CHECK(parsed("AND a") == "error: bad search query: AND needs a term on each side");
    CHECK(parsed("a AND") == "error: bad search query: AND needs a term on each side");
    CHECK(parsed("a NOT") == "error: bad search query: NOT needs a term after it");
    CHECK(parsed("a NOT NOT b") == "error: bad search query: NOT needs a term after it");
    CHECK(parsed("NOT a") == "error: bad search query: NOT needs something to exclude from");
    CHECK(parsed("a OR NOT b") == "error: bad search query: NOT needs something to exclude from");
    CHECK(parsed("(a") == "error: bad search query: a ( has no ) to close it");
    CHECK(parsed("a)") == "error: bad search query: a ) has no ( to close");
    CHECK(parsed("()") == "error: bad search query: empty parentheses");
    CHECK(parsed(std::string(17, '(') + "a" + std::string(17, ')')) ==
          "error: bad search query: parentheses nest deeper than 16 levels");
    CHECK(parsed(std::string(16, '(') + "a" + std::string(16, ')')) == "a");
    CHECK(parsed(std::string(5000, 'a')) == "error: bad search query: it is longer than 4096 bytes");
  }

  TEST_CASE("hostile input never crashes and never yields an empty term")
  {
    const std::string pieces[] = {"a",     "\"",    "*", "(",    ")",  " OR ",
                                  " NOT ", " AND ", " ", "\xFF", "b*", "\"c d\""};
    std::uint32_t state = 12345;
    for (int round = 0; round < 2000; ++round) {
      std::string query;
      const int n = 1 + static_cast<int>(state % 9);
      for (int i = 0; i < n; ++i) {
        state = state * 1664525U + 1013904223U;
        query += pieces[(state >> 16U) % std::size(pieces)];
      }
      const auto node = parse_search_query(query);
      if (!node.ok()) {
        continue;
      }
      // Every term has text and every group has children.
      std::vector<const SearchNode*> stack = {&node.value()};
      while (!stack.empty()) {
        const SearchNode* at = stack.back();
        stack.pop_back();
        if (at->kind == SearchNode::Kind::term) {
          CHECK_FALSE(at->text.empty());
        } else {
          CHECK_FALSE(at->children.empty());
          for (const auto& child : at->children) {
            stack.push_back(&child);
          }
        }
      }
    }
  }
}
