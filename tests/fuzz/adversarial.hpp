#pragma once

// Random and adversarial text for the output-gate property tests (internal/text/*_property_test.cpp,
// internal/render/*_property_test.cpp): every class of code point the gate handles, reminder-tag
// fragments and look-alikes, terminal escapes, random bytes and invalid UTF-8. Header-only, so
// the unit tests can use it without a library; the libFuzzer targets beside it get their input
// from libFuzzer instead.

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace mailroom::testing::fuzz {

// The seed for a property run: $MAILROOM_PROPERTY_SEED when set (decimal), else `fallback`.
inline std::uint64_t property_seed(std::uint64_t fallback)
{
  const char* env = std::getenv("MAILROOM_PROPERTY_SEED");
  return env != nullptr && *env != '\0' ? std::strtoull(env, nullptr, 10) : fallback;
}

// How long a property run may take: $MAILROOM_PROPERTY_MS when set, else `fallback_ms`.
inline std::chrono::milliseconds property_budget(long fallback_ms)
{
  const char* env = std::getenv("MAILROOM_PROPERTY_MS");
  return std::chrono::milliseconds(env != nullptr && *env != '\0' ? std::strtol(env, nullptr, 10)
                                                                  : fallback_ms);
}

class Adversary {
public:
  explicit Adversary(std::uint64_t seed) : m_random(seed) {}

  // A text of up to `max_tokens` pieces, each drawn from one of the families below.
  std::string text(std::size_t max_tokens = 48)
  {
    std::string out;
    const std::size_t tokens = below(max_tokens + 1);
    for (std::size_t i = 0; i < tokens; ++i) {
      switch (below(6)) {
      case 0:
        append(out, pick(k_interesting));
        break;
      case 1:
        out += pick(k_fragments);
        break;
      case 2:
        out += static_cast<char>(below(256)); // any byte
        break;
      case 3:
        out += pick(k_invalid);
        break;
      case 4:
        append(out, any_code_point());
        break;
      default:
        out += static_cast<char>(' ' + below(95)); // printable ASCII
        break;
      }
    }
    return out;
  }

  // Only valid UTF-8: the same families without raw bytes and invalid sequences.
  std::string valid_text(std::size_t max_tokens = 48)
  {
    std::string out;
    const std::size_t tokens = below(max_tokens + 1);
    for (std::size_t i = 0; i < tokens; ++i) {
      switch (below(4)) {
      case 0:
        append(out, pick(k_interesting));
        break;
      case 1:
        out += pick(k_fragments);
        break;
      case 2:
        append(out, any_code_point());
        break;
      default:
        out += static_cast<char>(' ' + below(95));
        break;
      }
    }
    return out;
  }

  // A number in [0, bound).
  std::size_t below(std::size_t bound)
  {
    return bound == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, bound - 1)(m_random);
  }

private:
  template <typename T, std::size_t N> const T& pick(const T (&items)[N]) { return items[below(N)]; }

  char32_t any_code_point()
  {
    for (;;) {
      const auto cp = static_cast<char32_t>(below(0x110000));
      if (cp < 0xD800 || cp > 0xDFFF) {
        return cp;
      }
    }
  }

  static void append(std::string& out, char32_t cp)
  {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  // Every class of unicode.hpp, the characters of issue #12, bases and joiners, look-alikes.
  static constexpr char32_t k_interesting[] = {
      0x00,    0x07,    0x08,    0x09,    0x0A,    0x0B,     0x0C,     0x0D,    0x1B,    0x1F,    0x7F,
      0x80,    0x85,    0x9B,    0x9F,    0xA0,    0xAD,     0x0301,   0x034F,  0x061C,  0x115F,  0x1160,
      0x1161,  0x11A8,  0x17B4,  0x180B,  0x180E,  0x180F,   0x1820,   0x200B,  0x200C,  0x200D,  0x200E,
      0x200F,  0x2028,  0x2029,  0x202A,  0x202E,  0x2060,   0x2064,   0x2065,  0x2066,  0x2069,  0x206F,
      0x20E3,  0x2013,  0x2039,  0x203A,  0x2764,  0x3000,   0x3008,   0x3009,  0x3164,  0x65E5,  0x8FBB,
      0xFDD0,  0xFDEF,  0xFE00,  0xFE0E,  0xFE0F,  0xFE64,   0xFE65,   0xFEFF,  0xFF0F,  0xFF1C,  0xFF1E,
      0xFF33,  0xFFA0,  0xFFF9,  0xFFFB,  0xFFFD,  0xFFFE,   0xFFFF,   0x13430, 0x1D173, 0x1D42C, 0x1F3FB,
      0x1F441, 0x1F468, 0x1F4BB, 0x1F5E8, 0x1F600, 0x1FFFE,  0xE0000,  0xE0001, 0xE0020, 0xE0041, 0xE007F,
      0xE0080, 0xE0100, 0xE01EF, 0xE01F0, 0xF0000, 0x10FFFD, 0x10FFFF, '0',     '<',     '>',     '/',
      's',     'S',     '-',
  };

  static constexpr std::string_view k_fragments[] = {
      "<",
      ">",
      "</",
      "/>",
      "<system-reminder>",
      "</system-reminder>",
      "<system-reminder",
      "</system-reminder",
      "system",
      "reminder",
      "system-reminder",
      "SYSTEM-REMINDER",
      "-",
      "_",
      " ",
      "\n",
      "\r\n",
      "\t",
      " foo=\"bar\"",
      "\xEF\xBC\x9C",
      "\xEF\xBC\x9E",
      "\xEF\xAC\x86", // U+FB06 ligature st
      "\xE3\x8F\x8C", // U+33CC square in
      "\xC5\x9B",     // U+015B s with acute
      "\xD1\x95",     // U+0455 Cyrillic dze
      "\xE2\x88\x92", // U+2212 minus sign
      "\xE2\x9D\xB0", // U+2770 heavy left angle bracket ornament
      "\xE2\x80\xBA", // U+203A single right angle quotation mark
      "<U+200B>",
      "\xEF\xB9\xA4",
      "\xEF\xB9\xA5",
      "\x1b[31m",
      "\x1b]0;t\a",
      "\x1b[2J",
      "\xE2\x80\x8B",
      "sys",
      "tem",
      "remi",
      "nder",
      "<U+200B>",
      "\\xff",
      "^[",
      "...",
      "\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x92\xBB",
      "\xE2\x9D\xA4\xEF\xB8\x8F",
  };

  static constexpr std::string_view k_invalid[] = {
      "\x80",
      "\xBF",
      "\xC0\x80",
      "\xC1\xBF",
      "\xC2",
      "\xE2\x82",
      "\xED\xA0\x80",
      "\xED\xBF\xBF",
      "\xF0\x82\x82\xAC",
      "\xF4\x90\x80\x80",
      "\xF5\x80\x80\x80",
      "\xF8\x88\x80\x80\x80",
      "\xFE",
      "\xFF",
      "\xE0\x80\xAF",
      "\xF0\x9F\x91",
  };

  std::mt19937_64 m_random;
};

} // namespace mailroom::testing::fuzz
