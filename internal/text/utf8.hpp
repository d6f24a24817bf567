#pragma once

// Minimal UTF-8 decoding for the output sanitisers. Strict: overlong forms, surrogates and code
// points past U+10FFFF are invalid.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace mailroom::text::utf8 {

struct Decoded {
  char32_t code_point = 0;
  std::size_t length = 0; // bytes consumed; 1 for an invalid byte
  bool valid = false;
};

// Decodes the character starting at `text[pos]` (pos < text.size()).
Decoded decode(std::string_view text, std::size_t pos);

// Appends the UTF-8 encoding of `cp` to `out`.
void append(std::string& out, char32_t cp);

// Largest n <= limit such that text[0, n) does not end inside a character.
std::size_t floor_boundary(std::string_view text, std::size_t limit);

} // namespace mailroom::text::utf8
