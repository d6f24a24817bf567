#include "text/display.hpp"

#include <string>
#include <type_traits>

#include <doctest/doctest.h>

#include "text/sanitize.hpp"

using namespace mailroom::text;

// The gate holds only if nothing turns a plain string into display text.
static_assert(!std::is_constructible_v<DisplayText, std::string>);
static_assert(!std::is_constructible_v<DisplayText, std::string_view>);
static_assert(!std::is_constructible_v<DisplayText, const char*>);
static_assert(!std::is_convertible_v<std::string, DisplayText>);
static_assert(DisplayArg<int> && DisplayArg<std::size_t> && DisplayArg<DisplayText>);
static_assert(!DisplayArg<char> && !DisplayArg<std::string> && !DisplayArg<const char*> && !DisplayArg<bool>);

TEST_SUITE("mailroom::text::display")
{
  TEST_CASE("literals, formatting and concatenation")
  {
    DisplayText text{"ID:"};
    text += " ";
    text += sanitize_line("mr-\x1b");
    CHECK(text == "ID: mr-^[");
    CHECK(DisplayText::format("{} of {}: {}", 2, std::size_t{3}, text) == "2 of 3: ID: mr-^[");
    CHECK(DisplayText::format("[{:>4}]", 7) == "[   7]");
    CHECK(join({DisplayText{"a"}, DisplayText{"b"}}, ", ") == "a, b");
    CHECK(spaces(3) == "   ");
    CHECK(fmt::format("<{}>", text) == "<ID: mr-^[>");
    const std::string plain = text; // leaving the gate is fine
    CHECK(plain == "ID: mr-^[");
  }

  TEST_CASE("trim and cut")
  {
    CHECK(trim(DisplayText{"  a b  "}) == "a b");
    CHECK(trim_end(DisplayText{"  a  "}) == "  a");
    CHECK(trim(DisplayText{"   "}).empty());
    const DisplayText long_text = sanitize_line("abcdef  ghijkl");
    CHECK(cut(long_text, 100) == long_text.view());
    CHECK(cut(long_text, 11) == "abcdef\xE2\x80\xA6"); // trailing spaces dropped before the marker
    CHECK(cut(long_text, 11).truncated());
    CHECK(cut(sanitize_line("\xE2\x80\xAE\xE2\x80\xAE"), 12, "") == "<U+202E>"); // never half an escape
    CHECK(cut(sanitize_line("\xff\xff"), 7, "") == "\\xff");
    const std::string family = "\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x92\xBB";
    CHECK(cut(sanitize_line(family + "x"), 8, "") == "\xF0\x9F\x91\xA8"); // no dangling joiner
  }

  TEST_CASE("display width counts columns")
  {
    CHECK(display_width("abc") == 3);
    CHECK(display_width("1\xEF\xB8\x8F") == 2);             // a digit with emoji presentation
    CHECK(display_width(std::string_view("a\tb", 3)) == 2); // a control takes no column
    CHECK(display_width("\xE2\x9C\x93") == 1);              // check mark
    CHECK(display_width("\xE6\x97\xA5\xE6\x9C\xAC") == 4);  // two CJK characters
    CHECK(display_width("e\xCC\x81") == 1);                 // combining acute
    CHECK(display_width("\xF0\x9F\x98\x80") == 2);          // emoji presentation
    CHECK(display_width("\xE2\x9D\xA4\xEF\xB8\x8F") == 2);  // heart + VS16
    CHECK(display_width("\xEF\xBC\xA1") == 2);              // fullwidth A
    CHECK(display_width("\xE1\x84\x80\xE1\x85\xA1") == 2);  // conjoining jamo: one syllable
  }
}
