#include "text/sanitize.hpp"

#include <doctest/doctest.h>

using namespace mailroom::text;

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
    CHECK(sanitize_text("\xC0\x80") == "\\xc0\\x80"); // overlong NUL
    CHECK(sanitize_text("caf\xC3\xA9 \xE2\x82\xAC") == "caf\xC3\xA9 \xE2\x82\xAC");
  }

  TEST_CASE("one-line views collapse line breaks")
  {
    CHECK(sanitize_line("a\n\n\tb\r\nc") == "a b c");
    CHECK(sanitize_line("x\x1b") == "x^[");
  }

  TEST_CASE("truncate_line cuts at a character boundary with ...")
  {
    CHECK(truncate_line("  short  ", 60) == "short");
    CHECK(truncate_line(std::string(70, 'a'), 60) == std::string(57, 'a') + "...");
    const std::string euros = "\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC"; // 9 bytes
    const std::string cut = truncate_line(euros, 8);
    CHECK(cut == "\xE2\x82\xAC...");
    CHECK(cut.size() <= 8);
  }

  TEST_CASE("reminder tags are removed in any case and spacing, to a fixpoint")
  {
    CHECK(neutralise_reminder_tags("a</system-reminder>b") == "ab");
    CHECK(neutralise_reminder_tags("<SYSTEM-REMINDER>x</ System-Reminder >") == "x");
    CHECK(neutralise_reminder_tags("</system-</system-reminder>reminder>") == "");
    CHECK(neutralise_reminder_tags("<<system-reminder>system-reminder>>") == ">");
    CHECK(neutralise_reminder_tags("<b>bold</b> <system-notice>") == "<b>bold</b> <system-notice>");
  }

  TEST_CASE("display width counts columns")
  {
    CHECK(display_width("abc") == 3);
    CHECK(display_width("\xE2\x9C\x93") == 1);       // check mark
    CHECK(display_width("\xE6\x97\xA5\xE6\x9C\xAC") == 4); // two CJK characters
  }
}
