#pragma once

// The output gate's invariants, checked from the output side (docs/output-safety.md). Used by the
// property tests and the libFuzzer targets; header-only. Each returns an empty string when the
// text holds the invariant, else what broke it and where.

#include <algorithm>
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

// Length of the gate's escape `<U+XXXX>` at `text[pos]`, or of the start of one that a limit cut
// (followed by the end, by U+2026 '…' or by the reminder's " ... [preview truncated]"); 0 when
// there is neither.
inline std::size_t escape_or_cut_escape(std::string_view text, std::size_t pos)
{
  std::size_t end = pos + 1;
  if (end < text.size() && text[end] == 'U') {
    ++end;
    if (end < text.size() && text[end] == '+') {
      ++end;
      while (end < text.size() && end - pos < 9 &&
             ((text[end] >= '0' && text[end] <= '9') || (text[end] >= 'A' && text[end] <= 'F'))) {
        ++end;
      }
      if (end - pos >= 7 && end < text.size() && text[end] == '>') {
        return end + 1 - pos;
      }
    }
  }
  const std::string_view after = text.substr(end);
  const bool cut = after.empty() || after.substr(0, 3) == "\xE2\x80\xA6" || after.substr(0, 6) == " ... [";
  return cut ? end - pos : 0;
}

// Text from outside in hook text (the structural guard, reminder.hpp Brackets::replace): no
// character that folds to a bracket but U+2039 and U+203A and the brackets of the gate's own
// `<U+XXXX>` escapes (whole, or cut by a limit).
inline std::string guard_violation(std::string_view text)
{
  for (std::size_t pos = 0; pos < text.size();) {
    const text::utf8::Decoded d = text::utf8::decode(text, pos);
    if (d.code_point == '<') {
      if (const std::size_t escape = escape_or_cut_escape(text, pos); escape > 0) {
        pos += escape;
        continue;
      }
    }
    const std::string_view fold = d.valid ? text::unicode::fold_for_tags(d.code_point) : std::string_view();
    if ((fold == "<" || fold == ">") && d.code_point != 0x2039 && d.code_point != 0x203A) {
      return fmt::format("bracket U+{:04X} at {} not guarded", static_cast<unsigned>(d.code_point), pos);
    }
    pos += d.length;
  }
  return {};
}

// Hook text of one value: display_violation, no reminder tag, guard_violation.
inline std::string hook_violation(std::string_view text, Lines lines)
{
  std::string broken = display_violation(text, lines);
  if (broken.empty() && text::contains_reminder_tag(text)) {
    broken = "a reminder tag survived";
  }
  return broken.empty() ? guard_violation(text) : broken;
}

// The inside of a check --inject block: display_violation and no reminder tag throughout, and
// guard_violation on the message lines ("- ..."; the other lines are the reminder's own, such as
// "Run 'mailroom read <id>' ...").
inline std::string frame_violation(std::string_view inside)
{
  std::string broken = display_violation(inside, Lines::many);
  if (broken.empty() && text::contains_reminder_tag(inside)) {
    broken = "a reminder tag survived";
  }
  for (std::size_t start = 0; broken.empty() && start < inside.size();) {
    const std::size_t end = std::min(inside.find('\n', start), inside.size());
    const std::string_view line = inside.substr(start, end - start);
    if (line.substr(0, 2) == "- ") {
      if (broken = guard_violation(line); !broken.empty()) {
        broken += fmt::format(" in the line {:?}", line);
      }
    }
    start = end + 1;
  }
  return broken;
}

} // namespace mailroom::testing::fuzz
