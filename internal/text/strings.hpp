#pragma once

// Small string helpers every layer uses: trimming, joining, hex, percent-decoding. No domain words.

#include <cstddef>
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

// The value of the hex digit `c` (either case), or -1 when it is not one.
int hex_value(char c);
// `text` with each %XX escape decoded; a '%' not followed by two hex digits is kept as written.
std::string percent_decode(std::string_view text);

// True when `text` starts with `prefix`.
constexpr bool starts_with(std::string_view text, std::string_view prefix)
{
  return text.substr(0, prefix.size()) == prefix;
}

// Levenshtein distance between `a` and `b`, ignoring ASCII case. O(|a|·|b|): for short names.
// When their lengths differ by more than k_edit_distance_exact_gap, returns that difference (a
// lower bound of the distance, above every did-you-mean threshold) without the work, so a 2 MB
// typo costs no more than a short one.
inline constexpr std::size_t k_edit_distance_exact_gap = 64;
std::size_t edit_distance(std::string_view a, std::string_view b);

// The most bytes of a user-supplied value that an error line or confirmation echoes.
inline constexpr std::size_t k_echo_cap_bytes = 200;

// `text` cut at a UTF-8 character boundary so that, with "…" appended when cut, it fits in
// `max_bytes`. For echoing values (ids, paths, names) in errors and confirmations.
std::string cap_for_echo(std::string_view text, std::size_t max_bytes = k_echo_cap_bytes);

// `text` in ASCII lower case.
std::string ascii_lower(std::string_view text);

} // namespace mailroom::text
