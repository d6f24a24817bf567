#include "text/base64.hpp"

#include <array>
#include <cstdint>

#include "text/utf8.hpp"

namespace mailroom::text {

namespace {

constexpr std::string_view k_alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<std::int8_t, 256> make_values()
{
  std::array<std::int8_t, 256> values{};
  for (auto& v : values) {
    v = -1;
  }
  for (std::size_t i = 0; i < k_alphabet.size(); ++i) {
    values[static_cast<unsigned char>(k_alphabet[i])] = static_cast<std::int8_t>(i);
  }
  return values;
}

constexpr std::array<std::int8_t, 256> k_values = make_values();

} // namespace

std::string base64_encode(std::string_view bytes)
{
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t n = (static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16U) |
                            (static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8U) |
                            static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 2]));
    out += k_alphabet[(n >> 18U) & 63U];
    out += k_alphabet[(n >> 12U) & 63U];
    out += k_alphabet[(n >> 6U) & 63U];
    out += k_alphabet[n & 63U];
  }
  const std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    std::uint32_t n = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])) << 16U;
    if (rest == 2) {
      n |= static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i + 1])) << 8U;
    }
    out += k_alphabet[(n >> 18U) & 63U];
    out += k_alphabet[(n >> 12U) & 63U];
    out += rest == 2 ? k_alphabet[(n >> 6U) & 63U] : '=';
    out += '=';
  }
  return out;
}

std::optional<std::string> base64_decode(std::string_view encoded)
{
  if (encoded.size() % 4 != 0) {
    return std::nullopt;
  }
  std::string out;
  out.reserve(encoded.size() / 4 * 3);
  for (std::size_t i = 0; i < encoded.size(); i += 4) {
    const bool last = i + 4 == encoded.size();
    std::uint32_t n = 0;
    int padding = 0;
    for (std::size_t j = 0; j < 4; ++j) {
      const char c = encoded[i + j];
      if (c == '=') {
        // Padding only at the end of the last group, and at most two.
        if (!last || j < 2) {
          return std::nullopt;
        }
        ++padding;
        n <<= 6U;
        continue;
      }
      if (padding > 0) {
        return std::nullopt; // a character after '='
      }
      const std::int8_t value = k_values[static_cast<unsigned char>(c)];
      if (value < 0) {
        return std::nullopt;
      }
      n = (n << 6U) | static_cast<std::uint32_t>(value);
    }
    // Canonical: the bits padding stands in for must be zero.
    if ((padding == 1 && (n & 0xFFU) != 0) || (padding == 2 && (n & 0xFFFFU) != 0)) {
      return std::nullopt;
    }
    out += static_cast<char>((n >> 16U) & 0xFFU);
    if (padding < 2) {
      out += static_cast<char>((n >> 8U) & 0xFFU);
    }
    if (padding < 1) {
      out += static_cast<char>(n & 0xFFU);
    }
  }
  return out;
}

bool is_valid_utf8(std::string_view bytes)
{
  for (std::size_t pos = 0; pos < bytes.size();) {
    const unsigned char c = static_cast<unsigned char>(bytes[pos]);
    if (c < 0x80) {
      ++pos; // the common case, without a decode call
      continue;
    }
    const utf8::Decoded d = utf8::decode(bytes, pos);
    if (!d.valid) {
      return false;
    }
    pos += d.length;
  }
  return true;
}

} // namespace mailroom::text
