#include "search_snippet.hpp"

#include <string>

#include <doctest/doctest.h>

namespace mailroom::ops {

namespace {

std::vector<std::string> words_of(std::string_view query)
{
  auto parsed = mail::parse_search_query(query);
  REQUIRE(parsed.ok());
  return wanted_words(*parsed);
}

} // namespace

TEST_SUITE("mailroom::ops::search_snippet")
{
  TEST_CASE("the words a query asks for leave out what NOT excludes")
  {
    CHECK(words_of("deploy failed") == std::vector<std::string>{"deploy", "failed"});
    CHECK(words_of("\"build failed\" OR rollout*") == std::vector<std::string>{"build", "failed", "rollout"});
    CHECK(words_of("deploy NOT staging") == std::vector<std::string>{"deploy"});
  }

  TEST_CASE("a snippet starts shortly before the first word that matches, at a word")
  {
    const std::string body = std::string(100, 'x') + " lorem ipsum dolor the Deploy failed at noon\n\nlogs";
    const std::string s = search_snippet(body, {"deploy"});
    CHECK(s.rfind("\u2026", 0) == 0);
    CHECK(s.find("Deploy failed at noon logs") != std::string::npos); // line breaks as one space
    CHECK(s.find(std::string(40, 'x')) == std::string::npos);
  }

  TEST_CASE("a word matches only where a word starts; none found gives the body's start")
  {
    CHECK(search_snippet("we redeploy now", {"deploy"}) == "we redeploy now");
    CHECK(search_snippet("short body", {"absent"}) == "short body");
    CHECK(search_snippet("", {"x"}).empty());
  }

  TEST_CASE("a long body is cut on character boundaries, with an ellipsis at each cut")
  {
    std::string body;
    for (int i = 0; i < 200; ++i) {
      body += "\u00e9t\u00e9 ";
    }
    body += "needle";
    for (int i = 0; i < 200; ++i) {
      body += " \u00e9t\u00e9";
    }
    const std::string s = search_snippet(body, {"needle"});
    CHECK(s.rfind("\u2026", 0) == 0);
    CHECK(s.size() >= 3 + 3);
    CHECK(s.substr(s.size() - 3) == "\u2026");
    CHECK(s.find("needle") != std::string::npos);
    CHECK(s.size() <= k_snippet_bytes + 6);
    // Every byte sequence is whole UTF-8: no continuation byte follows an ASCII byte.
    for (std::size_t i = 1; i < s.size(); ++i) {
      const auto c = static_cast<unsigned char>(s[i]);
      const auto before = static_cast<unsigned char>(s[i - 1]);
      CHECK_FALSE(((c & 0xC0) == 0x80 && before < 0x80));
    }
  }
}

} // namespace mailroom::ops
