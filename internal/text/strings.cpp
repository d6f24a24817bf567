#include "text/strings.hpp"

#include <algorithm>
#include <vector>

#include "text/utf8.hpp"

namespace mailroom::text {

namespace {

bool is_ascii_space(char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

} // namespace

std::string_view trim_view(std::string_view text)
{
  while (!text.empty() && is_ascii_space(text.front())) {
    text.remove_prefix(1);
  }
  while (!text.empty() && is_ascii_space(text.back())) {
    text.remove_suffix(1);
  }
  return text;
}

std::string trim(std::string_view text)
{
  return std::string(trim_view(text));
}

std::string join(const std::vector<std::string>& parts, std::string_view separator)
{
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) {
      out += separator;
    }
    out += parts[i];
  }
  return out;
}

int hex_value(char c)
{
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return -1;
}

std::string percent_decode(std::string_view text)
{
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex_value(text[i + 1]) >= 0 && hex_value(text[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

std::string to_hex(std::string_view bytes)
{
  constexpr std::string_view k_digits = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    out.push_back(k_digits[byte >> 4U]);
    out.push_back(k_digits[byte & 0x0FU]);
  }
  return out;
}

std::string ascii_lower(std::string_view text)
{
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c - 'A' + 'a');
    }
  }
  return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b)
{
  const std::size_t gap = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  if (gap > k_edit_distance_exact_gap) {
    return gap;
  }
  const std::string la = ascii_lower(a);
  const std::string lb = ascii_lower(b);
  std::vector<std::size_t> row(lb.size() + 1);
  for (std::size_t j = 0; j <= lb.size(); ++j) {
    row[j] = j;
  }
  for (std::size_t i = 1; i <= la.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= lb.size(); ++j) {
      const std::size_t above = row[j];
      const std::size_t cost = la[i - 1] == lb[j - 1] ? 0 : 1;
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + cost});
      diagonal = above;
    }
  }
  return row[lb.size()];
}

std::string cap_for_echo(std::string_view text, std::size_t max_bytes)
{
  constexpr std::string_view k_echo_ellipsis = "\u2026";
  if (text.size() <= max_bytes) {
    return std::string(text);
  }
  const std::size_t room = max_bytes > k_echo_ellipsis.size() ? max_bytes - k_echo_ellipsis.size() : 0;
  std::string out(text.substr(0, utf8::floor_boundary(text, room)));
  out += k_echo_ellipsis;
  return out;
}

} // namespace mailroom::text
