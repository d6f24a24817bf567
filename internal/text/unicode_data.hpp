#pragma once

// The generated tables behind unicode.hpp. Each is sorted by `first`, with disjoint ranges.
// Only unicode.cpp reads them; scripts/gen-unicode-tables.py writes unicode_data.cpp.

#include <cstdint>
#include <span>

#include "text/unicode.hpp"

namespace mailroom::text::unicode_data {

using unicode::CharClass;

struct ClassRange {
  char32_t first;
  char32_t last;
  CharClass value;
};

struct ValueRange {
  char32_t first;
  char32_t last;
  std::uint8_t value;
};

// Bits of base_ranges() values.
constexpr std::uint8_t k_base_emoji = 1;
constexpr std::uint8_t k_base_pictographic = 2;
constexpr std::uint8_t k_base_modifier = 4;
constexpr std::uint8_t k_base_standardized = 8;
constexpr std::uint8_t k_base_ideographic = 16;

// Every code point whose class is not visible.
std::span<const ClassRange> class_ranges();
// Code points whose width is not 1 before the class rules apply (value 0 or 2).
std::span<const ValueRange> width_ranges();
// Code points with any k_base_* bit (value: the bits).
std::span<const ValueRange> base_ranges();
// Non-ASCII code points that fold to an ASCII character: first + i folds to value + i.
std::span<const ValueRange> fold_ranges();

} // namespace mailroom::text::unicode_data
