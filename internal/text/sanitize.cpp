#include "text/sanitize.hpp"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "text/adopt.hpp"
#include "text/unicode.hpp"
#include "text/utf8.hpp"

namespace mailroom::text {

namespace {

using unicode::CharClass;

constexpr std::string_view k_replacement = "\xEF\xBF\xBD"; // U+FFFD
constexpr std::size_t k_no_stop = std::string::npos;

bool is_break(char32_t cp)
{
  return cp == '\n' || cp == '\r' || cp == '\t';
}

// Appends the escape for a control character: `^@`..`^_` for C0, `^?` for DEL, `\x80`..`\x9f`.
void append_control(std::string& out, char32_t cp)
{
  if (cp < 0x20) {
    out += '^';
    out += static_cast<char>(cp + 0x40);
  } else if (cp == 0x7F) {
    out += "^?";
  } else {
    fmt::format_to(std::back_inserter(out), "\\x{:02x}", static_cast<unsigned>(cp));
  }
}

void append_marker(std::string& out, char32_t cp)
{
  fmt::format_to(std::back_inserter(out), "<U+{:04X}>", static_cast<unsigned>(cp));
}

// True when a pictographic emoji starts at `raw[pos]`.
bool pictographic_at(std::string_view raw, std::size_t pos)
{
  if (pos >= raw.size()) {
    return false;
  }
  const utf8::Decoded d = utf8::decode(raw, pos);
  return d.valid && unicode::is_pictographic(d.code_point);
}

// Writes the safe form of `raw` to `out`. Stops early, returning false, once the output between
// its first and last non-space byte is longer than `stop_after`: the caller cuts it anyway.
bool sanitize_into(std::string& out, std::string_view raw, bool one_line, std::size_t stop_after)
{
  char32_t base = 0;   // the visible character just written, which a selector or ZWJ may follow
  bool varied = false; // a variation selector already follows `base`
  bool in_break = false;
  std::size_t first_visible = std::string::npos;
  std::size_t visible_end = 0;
  for (std::size_t pos = 0; pos < raw.size();) {
    if (first_visible != std::string::npos && visible_end - first_visible > stop_after) {
      return false;
    }
    // Printable ASCII, the bulk of most text, is copied as is (what the general path below does
    // for it, without decoding and classifying).
    if (const auto byte = static_cast<unsigned char>(raw[pos]); byte >= 0x20 && byte < 0x7F) {
      const std::size_t at = out.size();
      out += static_cast<char>(byte);
      ++pos;
      base = byte == ' ' ? 0 : byte;
      varied = false;
      in_break = false;
      if (byte != ' ') {
        first_visible = first_visible == std::string::npos ? at : first_visible;
        visible_end = out.size();
      }
      continue;
    }
    const utf8::Decoded d = utf8::decode(raw, pos);
    const std::string_view bytes = raw.substr(pos, d.length);
    pos += d.length;
    const std::size_t before = out.size();
    const char32_t cp = d.code_point;
    const bool was_base = base != 0;
    const char32_t previous = base;
    base = 0;
    if (!d.valid) {
      fmt::format_to(std::back_inserter(out), "\\x{:02x}", static_cast<unsigned char>(bytes[0]));
    } else if (one_line && is_break(cp)) {
      if (!in_break) {
        out += ' ';
      }
      in_break = true;
      continue;
    } else if (cp == '\n' || cp == '\t') {
      out += static_cast<char>(cp);
    } else {
      const CharClass c = unicode::classify(cp);
      if (c == CharClass::visible || c == CharClass::space || c == CharClass::mark) {
        out += bytes;
        base = c == CharClass::visible ? cp : 0;
        varied = false;
      } else if (c == CharClass::control) {
        append_control(out, cp);
      } else if (c == CharClass::variation_selector && was_base && !varied &&
                 unicode::may_vary(previous, cp)) {
        out += bytes;
        base = previous; // an emoji ZWJ sequence may go on after it
        varied = true;
      } else if (cp == unicode::k_zero_width_joiner && was_base && unicode::is_pictographic(previous) &&
                 pictographic_at(raw, pos)) {
        out += bytes;
      } else {
        append_marker(out, cp);
      }
    }
    in_break = false;
    if (out.size() > before && std::string_view(out).substr(before) != " ") {
      if (first_visible == std::string::npos) {
        first_visible = before;
      }
      visible_end = out.size();
    }
  }
  return true;
}

std::string sanitize_raw(std::string_view raw, Sink sink, std::size_t stop_after)
{
  // Printable ASCII is already safe for a terminal (no control, no break, no escape), and most
  // names, ids and table cells are just that: they are copied without decoding. A hook's text
  // still goes through the tag scan below.
  if (sink != Sink::hook &&
      std::all_of(raw.begin(), raw.end(), [](char c) { return c >= 0x20 && c < 0x7F; })) {
    return std::string(raw);
  }
  std::string out;
  out.reserve(stop_after == k_no_stop ? raw.size() : std::min(raw.size(), stop_after + 64));
  if (sink == Sink::hook) {
    // Tags go first: the sanitiser turns invisible characters into visible escapes, and a tag
    // with a zero-width space inside is still a tag to the model reading it. The brackets left
    // become '‹' and '›' (the structural guard), before the sanitiser writes its own escapes.
    sanitize_into(out, neutralise_reminder_tags(raw, Brackets::replace), true, stop_after);
  } else {
    sanitize_into(out, raw, sink == Sink::terminal_line, stop_after);
  }
  return out;
}

} // namespace

DisplayText sanitize(std::string_view raw, Sink sink)
{
  return adopt_sanitised(sanitize_raw(raw, sink, k_no_stop), false);
}

DisplayText sanitize(std::string_view raw, Sink sink, Limit limit)
{
  return cut(adopt_sanitised(sanitize_raw(raw, sink, limit.max_bytes), false), limit.max_bytes, limit.marker);
}

std::string cap_bytes(std::string_view raw, std::size_t max_bytes)
{
  if (raw.size() <= max_bytes) {
    return std::string(raw);
  }
  const bool with_marker = k_ellipsis.size() <= max_bytes;
  const std::size_t budget = with_marker ? max_bytes - k_ellipsis.size() : max_bytes;
  std::size_t keep = 0;
  while (keep < raw.size()) {
    const std::size_t next = keep + utf8::decode(raw, keep).length;
    if (next > budget) {
      break;
    }
    keep = next;
  }
  std::string out(raw.substr(0, keep));
  if (with_marker) {
    out += k_ellipsis;
  }
  return out;
}

std::string json_text(std::string_view raw)
{
  std::string out;
  out.reserve(raw.size());
  for (std::size_t pos = 0; pos < raw.size();) {
    const utf8::Decoded d = utf8::decode(raw, pos);
    if (d.valid) {
      out += raw.substr(pos, d.length);
    } else {
      out += k_replacement;
    }
    pos += d.length;
  }
  return out;
}

DisplayText sanitize_text(std::string_view raw)
{
  return sanitize(raw, Sink::terminal);
}

DisplayText sanitize_line(std::string_view raw)
{
  return sanitize(raw, Sink::terminal_line);
}

DisplayText preview_line(std::string_view raw, Sink sink, std::size_t max_bytes, Literal marker)
{
  const Sink line_sink = sink == Sink::terminal ? Sink::terminal_line : sink;
  const DisplayText line = trim(adopt_sanitised(sanitize_raw(raw, line_sink, max_bytes), false));
  return cut(line, max_bytes, marker.view());
}

DisplayText truncate_line(std::string_view raw, std::size_t max_bytes)
{
  return preview_line(raw, Sink::terminal_line, max_bytes, "\xE2\x80\xA6"); // U+2026
}

} // namespace mailroom::text
