#pragma once

// Small string helpers every layer uses: trimming, joining, hex. No domain words.

#include <string>
#include <string_view>
#include <vector>

namespace mailroom::text {

// `text` without leading and trailing ASCII whitespace (space, \t, \n, \r, \f, \v).
std::string_view trim_view(std::string_view text);
// The same as an owned string.
std::string trim(std::string_view text);

// `parts` joined with `separator` between them ("a, b, c").
std::string join(const std::vector<std::string>& parts, std::string_view separator = ", ");

// Lower-case hex of every byte of `bytes` ("\x01\xff" -> "01ff").
std::string to_hex(std::string_view bytes);

// True when `text` starts with `prefix`.
constexpr bool starts_with(std::string_view text, std::string_view prefix)
{
  return text.substr(0, prefix.size()) == prefix;
}

// `text` in ASCII lower case.
std::string ascii_lower(std::string_view text);

} // namespace mailroom::text
