#include "wake/placeholders.hpp"

#include <algorithm>

namespace mailroom::wake {

namespace {

bool name_char(char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// The length of the placeholder starting at `text[at]` ('{' name '}'), or 0 when none starts there.
std::size_t placeholder_at(std::string_view text, std::size_t at)
{
  if (text[at] != '{') {
    return 0;
  }
  std::size_t end = at + 1;
  while (end < text.size() && name_char(text[end])) {
    ++end;
  }
  if (end == at + 1 || end >= text.size() || text[end] != '}') {
    return 0;
  }
  return end - at + 1;
}

bool is_known(std::string_view name, std::span<const std::string_view> known)
{
  return std::find(known.begin(), known.end(), name) != known.end();
}

} // namespace

std::optional<std::string> unknown_placeholder(std::string_view text, std::span<const std::string_view> known)
{
  for (std::size_t at = 0; at < text.size(); ++at) {
    const std::size_t length = placeholder_at(text, at);
    if (length == 0) {
      continue;
    }
    const std::string_view name = text.substr(at + 1, length - 2);
    if (!is_known(name, known)) {
      return std::string(name);
    }
    at += length - 1;
  }
  return std::nullopt;
}

std::string substitute(std::string_view text, std::span<const std::string_view> known,
                       const std::function<std::string(std::string_view)>& value_of)
{
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size(); ++at) {
    const std::size_t length = placeholder_at(text, at);
    const std::string_view name = length == 0 ? std::string_view() : text.substr(at + 1, length - 2);
    if (length == 0 || !is_known(name, known)) {
      out += text[at];
      continue;
    }
    out += value_of(name);
    at += length - 1;
  }
  return out;
}

} // namespace mailroom::wake
