#pragma once

// Character properties the output gate needs, looked up in tables generated from Debian's Unicode
// 15.0 data (scripts/gen-unicode-tables.py -> unicode_data.cpp). The policy that uses them is in
// docs/output-safety.md.

#include <cstdint>
#include <string_view>

namespace mailroom::text::unicode {

// What a code point is, for display. Every class but visible, mark and space is "hidden": it
// draws nothing (or moves text around) and is shown as an escape, never raw.
enum class CharClass : std::uint8_t {
  visible,            // letters, digits, punctuation, symbols, private use, unassigned
  mark,               // Mn, Me: combining marks, drawn on the character before them
  space,              // Zs: U+0020, U+00A0, U+2000-U+200A, U+3000, ...
  control,            // Cc: C0, DEL, C1
  bidi,               // Bidi_Control: U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069
  format,             // the rest of Cf: U+00AD, U+200B-U+200D, U+2060-U+2064, U+FEFF, U+FFF9-U+FFFB, ...
  tag,                // the Tags block U+E0000-U+E007F, assigned or not
  variation_selector, // Variation_Selector: U+180B-U+180D, U+180F, U+FE00-U+FE0F, U+E0100-U+E01EF
  ignorable,          // other Default_Ignorable_Code_Point: U+034F, Hangul fillers U+115F, U+1160,
                      // U+3164, U+FFA0, U+17B4, U+17B5, unassigned U+2065, U+FFF0-U+FFF8, ...
  separator,          // Zl, Zp: U+2028, U+2029
  noncharacter,       // U+FDD0-U+FDEF and U+xxFFFE, U+xxFFFF in every plane
};

// U+200D ZERO WIDTH JOINER, which joins pictographs into one glyph (an emoji sequence).
constexpr char32_t k_zero_width_joiner = 0x200D;

// The class of `cp`. Values past U+10FFFF are noncharacter.
CharClass classify(char32_t cp);

// True for every class shown as an escape (all but visible, mark and space).
constexpr bool is_hidden(CharClass c)
{
  return c != CharClass::visible && c != CharClass::mark && c != CharClass::space;
}

// Terminal columns `cp` takes: 0 for marks, conjoining Hangul jamo (V, T) and hidden classes;
// 2 for East Asian Wide or Fullwidth and for Emoji_Presentation; 1 otherwise.
int cell_width(char32_t cp);

// True when the variation selector `selector` may directly follow `base` and be kept:
// U+FE0E/U+FE0F after an Emoji character; U+FE00-U+FE0F and U+180B-U+180F after a base of
// StandardizedVariants.txt; U+FE00-U+FE0F and U+E0100-U+E01EF after an Ideographic character.
// False when `selector` is not a variation selector.
bool may_vary(char32_t base, char32_t selector);

// True for Emoji characters (emoji-data.txt `Emoji`, which includes the ASCII digits, # and *).
bool is_emoji(char32_t cp);

// True for Extended_Pictographic and Emoji_Modifier characters: what an emoji ZWJ sequence joins.
bool is_pictographic(char32_t cp);

// What `cp` reads as when matching reminder tags (docs/output-safety.md, "Folding"): a string of
// lowercase ASCII letters, '<', '>', '/', '-' and '_', with '*' for anything else (a break: no
// tag goes on through it). Empty when nothing of `cp` is left to see: every class but visible,
// and visible characters whose compatibility decomposition is only such (U+00A8 is a space and a
// combining mark). Otherwise the compatibility decomposition with marks and hidden characters
// removed, case folded (CaseFolding.txt C and F), with look-alikes and dashes read as ASCII:
// "ﬆ" -> "st", "ś" -> "s", Cyrillic "ѕ" -> "s", "＜" -> "<", "½" -> "*/*", "日" -> "*".
// The view is of static storage; a lookup is at most three binary searches.
std::string_view fold_for_tags(char32_t cp);

} // namespace mailroom::text::unicode
