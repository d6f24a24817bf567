#include "text/sanitize.hpp"

#include <cctype>

#include <fmt/format.h>

#include "text/utf8.hpp"

namespace mailroom::text {

namespace {

bool is_bidi_control(char32_t cp)
{
  return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

bool is_line_break_or_tab(char32_t cp)
{
  return cp == '\n' || cp == '\r' || cp == '\t';
}

// Appends the visible form of one decoded character. `one_line` turns \n, \r and \t into a space
// (runs are collapsed by the caller).
void append_visible(std::string& out, std::string_view raw, std::size_t pos, const utf8::Decoded& d)
{
  if (!d.valid) {
    out += fmt::format("\\x{:02x}", static_cast<unsigned char>(raw[pos]));
    return;
  }
  const char32_t cp = d.code_point;
  if (cp < 0x20) {
    out += '^';
    out += static_cast<char>(cp + 0x40);
  } else if (cp == 0x7F) {
    out += "^?";
  } else if (cp >= 0x80 && cp <= 0x9F) {
    out += fmt::format("\\x{:02x}", static_cast<unsigned>(cp));
  } else if (is_bidi_control(cp)) {
    out += fmt::format("<U+{:04X}>", static_cast<unsigned>(cp));
  } else {
    out.append(raw.substr(pos, d.length));
  }
}

std::string sanitize(std::string_view raw, bool one_line)
{
  std::string out;
  out.reserve(raw.size());
  bool in_space_run = false;
  for (std::size_t pos = 0; pos < raw.size();) {
    const utf8::Decoded d = utf8::decode(raw, pos);
    const bool breaker = d.valid && is_line_break_or_tab(d.code_point);
    if (breaker && one_line) {
      if (!in_space_run) {
        out += ' ';
      }
      in_space_run = true;
    } else if (d.valid && (d.code_point == '\n' || d.code_point == '\t')) {
      out += static_cast<char>(d.code_point);
      in_space_run = false;
    } else {
      append_visible(out, raw, pos, d);
      in_space_run = false;
    }
    pos += d.length;
  }
  return out;
}

std::string_view trim(std::string_view text)
{
  while (!text.empty() && text.front() == ' ') {
    text.remove_prefix(1);
  }
  while (!text.empty() && text.back() == ' ') {
    text.remove_suffix(1);
  }
  return text;
}

bool is_space(char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool iequals_at(std::string_view text, std::size_t pos, std::string_view word)
{
  if (pos + word.size() > text.size()) {
    return false;
  }
  for (std::size_t i = 0; i < word.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[pos + i])) != word[i]) {
      return false;
    }
  }
  return true;
}

// If a reminder tag starts at `pos` (a '<'), returns its length; else 0.
std::size_t reminder_tag_length(std::string_view text, std::size_t pos)
{
  constexpr std::string_view k_name = "system-reminder";
  std::size_t i = pos + 1;
  const auto skip_spaces = [&] {
    while (i < text.size() && is_space(text[i])) {
      ++i;
    }
  };
  skip_spaces();
  if (i < text.size() && text[i] == '/') {
    ++i;
    skip_spaces();
  }
  if (!iequals_at(text, i, k_name)) {
    return 0;
  }
  i += k_name.size();
  skip_spaces();
  if (i < text.size() && text[i] == '/') { // a self-closing <system-reminder/> counts too
    ++i;
    skip_spaces();
  }
  if (i >= text.size() || text[i] != '>') {
    return 0;
  }
  return i + 1 - pos;
}

} // namespace

std::string sanitize_text(std::string_view raw)
{
  return sanitize(raw, false);
}

std::string sanitize_line(std::string_view raw)
{
  return sanitize(raw, true);
}

std::string truncate_line(std::string_view raw, std::size_t max_bytes)
{
  const std::string line = sanitize_line(raw);
  const std::string_view trimmed = trim(line);
  if (trimmed.size() <= max_bytes) {
    return std::string(trimmed);
  }
  if (max_bytes < 3) {
    return std::string(trimmed.substr(0, utf8::floor_boundary(trimmed, max_bytes)));
  }
  const std::size_t keep = utf8::floor_boundary(trimmed, max_bytes - 3);
  return std::string(trim(trimmed.substr(0, keep))) + "...";
}

std::string neutralise_reminder_tags(std::string_view text)
{
  std::string current(text);
  // Deleting one tag can join the halves of another (`</system-</system-reminder>reminder>`), so
  // repeat until a whole pass changes nothing.
  bool changed = true;
  while (changed) {
    changed = false;
    std::string next;
    next.reserve(current.size());
    for (std::size_t pos = 0; pos < current.size();) {
      if (current[pos] == '<') {
        const std::size_t length = reminder_tag_length(current, pos);
        if (length > 0) {
          pos += length;
          changed = true;
          continue;
        }
      }
      next += current[pos];
      ++pos;
    }
    current = std::move(next);
  }
  return current;
}

std::size_t display_width(std::string_view text)
{
  std::size_t width = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    const utf8::Decoded d = utf8::decode(text, pos);
    pos += d.length;
    const char32_t cp = d.code_point;
    if (!d.valid) {
      width += 1;
    } else if ((cp >= 0x0300 && cp <= 0x036F) || cp == 0x200B || cp == 0x200D || (cp >= 0xFE00 && cp <= 0xFE0F)) {
      continue; // combining marks and joiners take no column
    } else if ((cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) || (cp >= 0xAC00 && cp <= 0xD7A3)
               || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60)
               || (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F)
               || (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD)) {
      width += 2;
    } else {
      width += 1;
    }
  }
  return width;
}

} // namespace mailroom::text
