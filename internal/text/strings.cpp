#include "text/strings.hpp"

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

} // namespace mailroom::text
