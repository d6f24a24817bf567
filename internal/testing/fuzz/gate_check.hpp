#pragma once

// The output gate's invariants, checked from the output side (docs/output-safety.md). Used by the
// property tests and the libFuzzer targets; header-only. Each returns an empty string when the
// text holds the invariant, else what broke it and where.

#include <string>
#include <string_view>

#include <fmt/format.h>

#include "text/reminder.hpp"
#include "text/unicode.hpp"
#include "text/utf8.hpp"

namespace mailroom::testing::fuzz {

enum class Lines { one, many };

// Terminal or hook text: valid UTF-8; no control character (but `\n` and `\t` when `lines` is
// many); no bidi, format, tag, ignorable, separator or noncharacter code point, except U+200D
// between two pictographic emoji; a variation selector only right after a base it may modify, one
// per base.
inline std::string display_violation(std::string_view text, Lines lines)
{
  namespace unicode = text::unicode;
  using unicode::CharClass;
  char32_t previous = 0; // the code point before, 0 at the start or after an invalid byte
  bool previous_varied = false;
  char32_t varied_base = 0; // the base a kept selector follows
  for (std::size_t pos = 0; pos < text.size();) {
    const text::utf8::Decoded d = text::utf8::decode(text, pos);
    if (!d.valid) {
      return fmt::format("invalid UTF-8 byte {:#04x} at {}", static_cast<unsigned char>(text[pos]), pos);
    }
    const char32_t cp = d.code_point;
    const CharClass c = unicode::classify(cp);
    const auto fail = [&](std::string_view what) {
      return fmt::format("{} U+{:04X} at {}", what, static_cast<unsigned>(cp), pos);
    };
    if (c == CharClass::control && !(lines == Lines::many && (cp == '\n' || cp == '\t'))) {
      return fail("control");
    }
    if (c == CharClass::variation_selector) {
      const bool ok = previous != 0 && !previous_varied &&
                      unicode::classify(previous) == CharClass::visible && unicode::may_vary(previous, cp);
      if (!ok) {
        return fail("lone variation selector");
      }
    } else if (cp == 0x200D) {
      const char32_t before = previous_varied ? varied_base : previous;
      std::size_t next = pos + d.length;
      const bool after_ok = next < text.size() && text::utf8::decode(text, next).valid &&
                            unicode::is_pictographic(text::utf8::decode(text, next).code_point);
      if (!(unicode::is_pictographic(before) && after_ok)) {
        return fail("joiner outside an emoji sequence");
      }
    } else if (c != CharClass::control && unicode::is_hidden(c)) {
      return fail("hidden");
    }
    if (c == CharClass::variation_selector) {
      varied_base = previous;
      previous_varied = true;
    } else {
      previous_varied = false;
      previous = cp;
    }
    pos += d.length;
  }
  return {};
}

// Hook text: display_violation plus no reminder tag.
inline std::string hook_violation(std::string_view text, Lines lines)
{
  std::string broken = display_violation(text, lines);
  if (broken.empty() && text::contains_reminder_tag(text)) {
    broken = "a reminder tag survived";
  }
  return broken;
}

} // namespace mailroom::testing::fuzz
