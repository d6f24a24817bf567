#include "text/sanitize.hpp"

#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "text/utf8.hpp"

using namespace mailroom::text;

namespace {

std::string encode(char32_t cp)
{
  std::string out;
  utf8::append(out, cp);
  return out;
}

} // namespace

TEST_SUITE("mailroom::text::sanitize")
{
  TEST_CASE("escape sequences are shown, never executed")
  {
    CHECK(sanitize_text("a\x1b[31mred\x1b[0m") == "a^[[31mred^[[0m");
    CHECK(sanitize_text("bell\x07") == "bell^G");
    CHECK(sanitize_text("del\x7f") == "del^?");
    CHECK(sanitize_text("cr\roverwrite") == "cr^Moverwrite");
    CHECK(sanitize_text(std::string("nul\0x", 5)) == "nul^@x");
  }

  TEST_CASE("multi-line text keeps newlines and tabs")
  {
    CHECK(sanitize_text("line 1\n\tline 2") == "line 1\n\tline 2");
  }

  TEST_CASE("C1 controls, bidi overrides and invalid UTF-8 are visible")
  {
    CHECK(sanitize_text("csi\xC2\x9b") == "csi\\x9b");
    CHECK(sanitize_text("abc\xE2\x80\xAEgnp.exe") == "abc<U+202E>gnp.exe");
    CHECK(sanitize_text("iso \xE9t\xE9") == "iso \\xe9t\\xe9");
    CHECK(sanitize_text("\xC0\x80") == "\\xc0\\x80");          // overlong NUL
    CHECK(sanitize_text("\xED\xA0\x80") == "\\xed\\xa0\\x80"); // a surrogate
    CHECK(sanitize_text("caf\xC3\xA9 \xE2\x82\xAC") == "caf\xC3\xA9 \xE2\x82\xAC");
  }

  TEST_CASE("the 22 invisible and format characters of issue #12 are all made visible")
  {
    const std::vector<std::pair<char32_t, std::string>> cases = {
        {0x200B, "<U+200B>"},   {0x200C, "<U+200C>"},   {0x200D, "<U+200D>"},     {0x200E, "<U+200E>"},
        {0x200F, "<U+200F>"},   {0x2060, "<U+2060>"},   {0x061C, "<U+061C>"},     {0x00AD, "<U+00AD>"},
        {0xFEFF, "<U+FEFF>"},   {0xFFF9, "<U+FFF9>"},   {0x180E, "<U+180E>"},     {0x3164, "<U+3164>"},
        {0x115F, "<U+115F>"},   {0x1160, "<U+1160>"},   {0xFFA0, "<U+FFA0>"},     {0xFE0F, "<U+FE0F>"},
        {0xE0000, "<U+E0000>"}, {0xE0041, "<U+E0041>"}, {0xE007F, "<U+E007F>"},   {0x2028, "<U+2028>"},
        {0x2029, "<U+2029>"},   {0xFDD0, "<U+FDD0>"},   {0x10FFFF, "<U+10FFFF>"}, {0x2066, "<U+2066>"},
    };
    for (const auto& [cp, shown] : cases) {
      CAPTURE(static_cast<unsigned>(cp));
      for (const Sink sink : {Sink::terminal, Sink::terminal_line, Sink::hook}) {
        CHECK(sanitize("a " + encode(cp) + "b", sink) == "a " + shown + "b");
      }
    }
  }

  TEST_CASE("variation selectors stay only right after a base they modify, one per base")
  {
    const std::string heart = "\xE2\x9D\xA4";     // U+2764, text-default emoji
    const std::string vs16 = "\xEF\xB8\x8F";      // U+FE0F
    const std::string ideograph = "\xE8\xBE\xBB"; // U+8FBB
    const std::string ivs = "\xF3\xA0\x84\x80";   // U+E0100
    CHECK(sanitize_line(heart + vs16) == heart + vs16);
    CHECK(sanitize_line(ideograph + ivs) == ideograph + ivs);
    CHECK(sanitize_line(vs16 + "x") == "<U+FE0F>x");                        // at the start
    CHECK(sanitize_line("x" + vs16) == "x<U+FE0F>");                        // after a letter
    CHECK(sanitize_line(heart + vs16 + vs16) == heart + vs16 + "<U+FE0F>"); // a second one
    CHECK(sanitize_line("a" + ivs) == "a<U+E0100>");
    CHECK(sanitize_line(" " + vs16) == " <U+FE0F>");
  }

  TEST_CASE("a joiner stays only inside an emoji ZWJ sequence")
  {
    const std::string technologist = "\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x92\xBB"; // U+1F468 ZWJ U+1F4BB
    CHECK(sanitize_line(technologist) == technologist);
    const std::string eye =
        "\xF0\x9F\x91\x81\xEF\xB8\x8F\xE2\x80\x8D\xF0\x9F\x97\xA8\xEF\xB8\x8F"; // eye in bubble
    CHECK(sanitize_line(eye) == eye);
    CHECK(sanitize_line("a\xE2\x80\x8D"
                        "b") == "a<U+200D>b");
    CHECK(sanitize_line("\xF0\x9F\x91\xA8\xE2\x80\x8D") == "\xF0\x9F\x91\xA8<U+200D>");
  }

  TEST_CASE("one-line views collapse line breaks")
  {
    CHECK(sanitize_line("a\n\n\tb\r\nc") == "a b c");
    CHECK(sanitize_line("x\x1b") == "x^[");
    CHECK(sanitize("a\n\nb", Sink::hook) == "a b");
  }

  TEST_CASE("hook text has no reminder tag, even one hidden with invisible characters")
  {
    CHECK(sanitize("a</system-reminder foo=\"bar\">b", Sink::hook) == "ab");
    CHECK(sanitize("a</system-reminder\xE2\x80\x8B>b", Sink::hook) == "ab");
    CHECK(sanitize("a</system-reminder>b", Sink::terminal_line) == "a</system-reminder>b");
  }

  TEST_CASE("sanitising twice changes nothing")
  {
    const std::string raw =
        "a\x1b[1m\xE2\x80\xAE\xff\n\tb\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x92\xBB\xEF\xB8\x8F";
    for (const Sink sink : {Sink::terminal, Sink::terminal_line, Sink::hook}) {
      const DisplayText once = sanitize(raw, sink);
      CHECK(sanitize(once, sink) == once.view());
    }
  }

  TEST_CASE("a limit cuts between escapes and characters and says so")
  {
    const DisplayText cut_text = sanitize(std::string(300, 'a'), Sink::terminal_line, Limit{});
    CHECK(cut_text.size() == k_default_cap_bytes);
    CHECK(cut_text.view().substr(cut_text.size() - 3) == k_ellipsis);
    CHECK(cut_text.truncated());
    CHECK_FALSE(sanitize("short", Sink::terminal_line, Limit{}).truncated());
    // Never inside an escape: 11 bytes leave room for one "<U+200B>" and "…".
    CHECK(sanitize("\xE2\x80\x8B\xE2\x80\x8B", Sink::terminal_line, Limit{11}) == "<U+200B>\xE2\x80\xA6");
    CHECK(sanitize("\x1b\x1b\x1b", Sink::terminal_line, Limit{5}) == "^[\xE2\x80\xA6");
    CHECK(sanitize("abcdef", Sink::terminal_line, Limit{4, "..."}) == "a...");
    CHECK(sanitize("abcdef", Sink::terminal_line, Limit{2}) == "ab"); // no room for the marker
  }

  TEST_CASE("a 2 MB value costs no more than its cap")
  {
    const std::string huge(2 * 1024 * 1024, '\x1b');
    const DisplayText shown = sanitize(huge, Sink::terminal_line, Limit{});
    CHECK(shown.size() <= k_default_cap_bytes);
    CHECK(shown.view().substr(0, 4) == "^[^[");
  }

  TEST_CASE("cap_bytes cuts raw text at a character boundary with …")
  {
    CHECK(cap_bytes("short") == "short");
    CHECK(cap_bytes(std::string(2'000'000, 'k')) == std::string(197, 'k') + "\xE2\x80\xA6");
    CHECK(cap_bytes("\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC", 8) == "\xE2\x82\xAC\xE2\x80\xA6");
    CHECK(cap_bytes("\xff\xff\xff\xff\xff", 4) == "\xff\xE2\x80\xA6");
    CHECK(cap_bytes("abcdef", 2) == "ab");
    CHECK(cap_bytes("abcdef", 0).empty());
  }

  TEST_CASE("json_text keeps valid text exactly and replaces each invalid byte")
  {
    CHECK(json_text("a\x1b\xE2\x80\xAE\xF3\xA0\x81\x81") == "a\x1b\xE2\x80\xAE\xF3\xA0\x81\x81");
    CHECK(json_text("bad\xff\xfe!") == "bad\xEF\xBF\xBD\xEF\xBF\xBD!");
    CHECK(json_text("\xE2\x82") == "\xEF\xBF\xBD\xEF\xBF\xBD");
  }

  TEST_CASE("truncate_line cuts at a character boundary with …")
  {
    CHECK(truncate_line("  short  ", 60) == "short");
    CHECK(truncate_line(std::string(70, 'a'), 60) == std::string(57, 'a') + "\xE2\x80\xA6");
    const std::string euros = "\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC"; // 9 bytes
    const DisplayText cut_euros = truncate_line(euros, 8);
    CHECK(cut_euros == "\xE2\x82\xAC\xE2\x80\xA6");
    CHECK(cut_euros.size() <= 8);
  }
}
