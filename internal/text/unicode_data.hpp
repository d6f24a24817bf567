#pragma once

// The generated tables behind unicode.hpp. Each is sorted by `first`, with disjoint ranges.
// Only unicode.cpp reads them; scripts/gen-unicode-tables.py writes unicode_data.cpp.

#include <cstdint>
#include <span>
#include <string_view>

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

// first + i folds to the one character `fold + step * i` (step 0 or 1).
struct FoldRange {
  char32_t first;
  char32_t last;
  char fold;
  std::uint8_t step;
};

// A code point whose fold is not one character: several, or none (nothing of it is left to see).
struct FoldText {
  char32_t code_point;
  std::string_view fold;
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
// The reminder-tag fold (unicode::fold_for_tags) of the visible non-ASCII code points whose fold
// is one character other than the break '*'.
std::span<const FoldRange> fold_ranges();
// The same for folds of another length (never only '*').
std::span<const FoldText> fold_texts();

} // namespace mailroom::text::unicode_data
