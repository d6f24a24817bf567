#include "text/display.hpp"

#include <algorithm>
#include <ostream>

#include "text/adopt.hpp"
#include "text/unicode.hpp"
#include "text/utf8.hpp"

namespace mailroom::text {

namespace {

bool is_hex(char c, bool upper_only)
{
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || (!upper_only && c >= 'a' && c <= 'f');
}

// Length of the sanitiser's escape starting at `text[pos]` (`<U+200B>`, `\xff`, `^[`, `^?`), or 0.
std::size_t escape_length(std::string_view text, std::size_t pos)
{
  const std::string_view rest = text.substr(pos);
  if (rest.size() >= 2 && rest[0] == '^' && ((rest[1] >= '@' && rest[1] <= '_') || rest[1] == '?')) {
    return 2;
  }
  if (rest.size() >= 4 && rest[0] == '\\' && rest[1] == 'x' && is_hex(rest[2], false) &&
      is_hex(rest[3], false)) {
    return 4;
  }
  if (rest.size() >= 8 && rest.substr(0, 3) == "<U+") {
    std::size_t digits = 0;
    while (3 + digits < rest.size() && digits < 6 && is_hex(rest[3 + digits], true)) {
      ++digits;
    }
    if (digits >= 4 && 3 + digits < rest.size() && rest[3 + digits] == '>') {
      return 3 + digits + 1;
    }
  }
  return 0;
}

} // namespace

void literal_has_control_byte() {}

DisplayText adopt_sanitised(std::string text, bool truncated)
{
  return DisplayText(std::move(text), truncated);
}

DisplayText& DisplayText::operator+=(const DisplayText& other)
{
  m_text += other.m_text;
  m_truncated = m_truncated || other.m_truncated;
  return *this;
}

DisplayText& DisplayText::operator+=(Literal literal)
{
  m_text += literal.view();
  return *this;
}

std::ostream& operator<<(std::ostream& out, const DisplayText& text)
{
  return out << text.m_text;
}

std::size_t display_width(std::string_view text)
{
  // Printable ASCII is one column a byte: most cells are, and they need no decoding.
  if (std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c < 0x7F; })) {
    return text.size();
  }
  std::size_t width = 0;
  int previous = 0;
  bool previous_emoji = false;
  for (std::size_t pos = 0; pos < text.size();) {
    const utf8::Decoded d = utf8::decode(text, pos);
    pos += d.length;
    if (!d.valid) {
      width += 1;
      previous = 1;
      previous_emoji = false;
      continue;
    }
    if (d.code_point == 0xFE0F && previous == 1 && previous_emoji) {
      width += 1; // emoji presentation of a text-default emoji: two columns
      previous = 2;
      continue;
    }
    const int w = unicode::cell_width(d.code_point);
    width += static_cast<std::size_t>(w);
    if (w > 0) {
      previous = w;
      previous_emoji = unicode::is_emoji(d.code_point);
    }
  }
  return width;
}

DisplayText trim(const DisplayText& text)
{
  const std::string_view view = text.view();
  const auto first = view.find_first_not_of(' ');
  if (first == std::string_view::npos) {
    return adopt_sanitised({}, text.truncated());
  }
  const auto last = view.find_last_not_of(' ');
  return adopt_sanitised(std::string(view.substr(first, last - first + 1)), text.truncated());
}

DisplayText trim_end(const DisplayText& text)
{
  const std::string_view view = text.view();
  const auto last = view.find_last_not_of(' ');
  const std::size_t keep = last == std::string_view::npos ? 0 : last + 1;
  return adopt_sanitised(std::string(view.substr(0, keep)), text.truncated());
}

DisplayText cut(const DisplayText& text, std::size_t max_bytes, std::string_view marker)
{
  const std::string_view view = text.view();
  if (view.size() <= max_bytes) {
    return text;
  }
  const bool with_marker = marker.size() <= max_bytes;
  const std::size_t budget = with_marker ? max_bytes - marker.size() : max_bytes;
  std::size_t keep = 0;
  for (std::size_t pos = 0; pos < view.size();) {
    std::size_t step = escape_length(view, pos);
    bool joiner = false;
    if (step == 0) {
      const utf8::Decoded d = utf8::decode(view, pos);
      step = d.length;
      joiner = d.valid && d.code_point == unicode::k_zero_width_joiner;
    }
    pos += step;
    if (pos > budget) {
      break;
    }
    if (!joiner) { // a kept joiner stays with the emoji after it
      keep = pos;
    }
  }
  std::string out(view.substr(0, keep));
  while (!out.empty() && out.back() == ' ') {
    out.pop_back();
  }
  if (with_marker) {
    out += marker;
  }
  return adopt_sanitised(std::move(out), true);
}

DisplayText spaces(std::size_t count)
{
  return adopt_sanitised(std::string(count, ' '), false);
}

DisplayText join(const std::vector<DisplayText>& parts, Literal separator)
{
  DisplayText out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) {
      out += separator;
    }
    out += parts[i];
  }
  return out;
}

DisplayText styled(const DisplayText& text, Style style)
{
  std::string_view sgr;
  switch (style) {
  case Style::bold:
    sgr = "1";
    break;
  case Style::alert:
    sgr = "1;31";
    break;
  case Style::warning:
    sgr = "33";
    break;
  }
  return adopt_sanitised(fmt::format("\x1b[{}m{}\x1b[0m", sgr, text.view()), text.truncated());
}

} // namespace mailroom::text
