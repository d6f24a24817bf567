#include <string>

#include <doctest/doctest.h>

#include "text/strings.hpp"

namespace text = mailroom::text;

TEST_SUITE("mailroom::text strings")
{
  TEST_CASE("edit_distance is Levenshtein ignoring ASCII case")
  {
    CHECK(text::edit_distance("mayor", "mayor") == 0);
    CHECK(text::edit_distance("mayor", "MAYOR") == 0);
    CHECK(text::edit_distance("mayr", "mayor") == 1);
    CHECK(text::edit_distance("polecta", "polecat") == 2);
    CHECK(text::edit_distance("", "abc") == 3);
    CHECK(text::edit_distance("kitten", "sitting") == 3);
  }

  TEST_CASE("edit_distance answers a huge input by the length gap, a lower bound")
  {
    const std::string huge(2'000'000, 'k');
    CHECK(text::edit_distance(huge, "busy_timeout_ms") == huge.size() - 15);
    CHECK(text::edit_distance("busy_timeout_ms", huge) == huge.size() - 15);
    // Within the gap the answer stays exact.
    const std::string near(15 + text::k_edit_distance_exact_gap, 'b');
    CHECK(text::edit_distance(near, "b") == near.size() - 1);
  }

  TEST_CASE("percent_decode decodes each %XX escape and keeps a malformed one as written")
  {
    CHECK(text::percent_decode("pass%77ord") == "password");
    CHECK(text::percent_decode("%2F%2f") == "//");
    CHECK(text::percent_decode("100%") == "100%");
    CHECK(text::percent_decode("%4") == "%4");
    CHECK(text::percent_decode("%zz%41") == "%zzA");
    CHECK(text::hex_value('F') == 15);
    CHECK(text::hex_value('g') == -1);
  }
}
