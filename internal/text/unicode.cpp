#include "text/unicode.hpp"

#include <algorithm>
#include <array>
#include <span>

#include "text/unicode_data.hpp"

namespace mailroom::text::unicode {

namespace {

// The range holding `cp`, or nullptr.
template <typename Range> const Range* find(std::span<const Range> ranges, char32_t cp)
{
  const auto it = std::upper_bound(ranges.begin(), ranges.end(), cp,
                                   [](char32_t value, const Range& r) { return value < r.first; });
  if (it == ranges.begin()) {
    return nullptr;
  }
  const Range& r = *std::prev(it);
  return cp <= r.last ? &r : nullptr;
}

std::uint8_t base_bits(char32_t cp)
{
  const auto* r = find(unicode_data::base_ranges(), cp);
  return r != nullptr ? r->value : 0;
}

} // namespace

CharClass classify(char32_t cp)
{
  // Printable ASCII is by far the most common input.
  if (cp > 0x20 && cp < 0x7F) {
    return CharClass::visible;
  }
  if (cp > 0x10FFFF) {
    return CharClass::noncharacter;
  }
  const auto* r = find(unicode_data::class_ranges(), cp);
  return r != nullptr ? r->value : CharClass::visible;
}

int cell_width(char32_t cp)
{
  const CharClass c = classify(cp);
  if (c == CharClass::mark || is_hidden(c)) {
    return 0;
  }
  const auto* r = find(unicode_data::width_ranges(), cp);
  return r != nullptr ? r->value : 1;
}

bool may_vary(char32_t base, char32_t selector)
{
  const std::uint8_t bits = base_bits(base);
  if (selector == 0xFE0E || selector == 0xFE0F) {
    if ((bits & unicode_data::k_base_emoji) != 0) {
      return true;
    }
  }
  if ((selector >= 0xFE00 && selector <= 0xFE0F) ||
      (selector >= 0x180B && selector <= 0x180F && selector != 0x180E)) {
    if ((bits & unicode_data::k_base_standardized) != 0) {
      return true;
    }
  }
  if ((selector >= 0xFE00 && selector <= 0xFE0F) || (selector >= 0xE0100 && selector <= 0xE01EF)) {
    return (bits & unicode_data::k_base_ideographic) != 0;
  }
  return false;
}

bool is_emoji(char32_t cp)
{
  return (base_bits(cp) & unicode_data::k_base_emoji) != 0;
}

bool is_pictographic(char32_t cp)
{
  return (base_bits(cp) & (unicode_data::k_base_pictographic | unicode_data::k_base_modifier)) != 0;
}

std::string_view fold_for_tags(char32_t cp)
{
  // Every fold of one character is a view of this: the ASCII characters in code order.
  static constexpr auto k_ascii = [] {
    std::array<char, 0x80> chars{};
    for (std::size_t i = 0; i < chars.size(); ++i) {
      chars[i] = static_cast<char>(i);
    }
    return chars;
  }();
  const auto one = [](char c) { return std::string_view(&k_ascii[static_cast<unsigned char>(c) & 0x7F], 1); };
  if (cp < 0x80) {
    if (cp >= 'A' && cp <= 'Z') {
      return one(static_cast<char>(cp - 'A' + 'a'));
    }
    if ((cp >= 'a' && cp <= 'z') || cp == '<' || cp == '>' || cp == '/' || cp == '-' || cp == '_') {
      return one(static_cast<char>(cp));
    }
    return classify(cp) == CharClass::visible ? one('*') : std::string_view();
  }
  if (classify(cp) != CharClass::visible) {
    return {};
  }
  if (const auto* r = find(unicode_data::fold_ranges(), cp); r != nullptr) {
    return one(static_cast<char>(r->fold + r->step * static_cast<int>(cp - r->first)));
  }
  const auto texts = unicode_data::fold_texts();
  const auto it =
      std::lower_bound(texts.begin(), texts.end(), cp,
                       [](const unicode_data::FoldText& t, char32_t value) { return t.code_point < value; });
  if (it != texts.end() && it->code_point == cp) {
    return it->fold;
  }
  return one('*');
}

} // namespace mailroom::text::unicode
