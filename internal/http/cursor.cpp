#include "cursor.hpp"

#include <charconv>

#include <fmt/format.h>

namespace mailroom::http {

namespace {

constexpr std::string_view k_version = "c1";

// Base64url without padding: the cursor travels in a query string untouched.
constexpr std::string_view k_alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string encode64(std::string_view bytes)
{
  std::string out;
  unsigned buffer = 0;
  int bits = 0;
  for (const char c : bytes) {
    buffer = (buffer << 8) | static_cast<unsigned char>(c);
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out.push_back(k_alphabet[(buffer >> bits) & 63U]);
    }
  }
  if (bits > 0) {
    out.push_back(k_alphabet[(buffer << (6 - bits)) & 63U]);
  }
  return out;
}

bool decode64(std::string_view text, std::string& out)
{
  unsigned buffer = 0;
  int bits = 0;
  for (const char c : text) {
    const std::size_t value = k_alphabet.find(c);
    if (value == std::string_view::npos) {
      return false;
    }
    buffer = (buffer << 6) | static_cast<unsigned>(value);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 255U));
    }
  }
  return true;
}

Error bad_cursor()
{
  return make_error(ErrorCode::usage, "bad cursor", "pass next_cursor back unchanged, with the same box");
}

} // namespace

std::string encode_cursor(std::string_view box, std::size_t offset)
{
  return encode64(fmt::format("{}:{}:{}", k_version, box, offset));
}

Result<std::size_t> decode_cursor(std::string_view cursor, std::string_view box)
{
  std::string plain;
  if (cursor.size() > 64 || !decode64(cursor, plain)) {
    return bad_cursor();
  }
  const std::string prefix = fmt::format("{}:{}:", k_version, box);
  if (plain.size() <= prefix.size() || plain.compare(0, prefix.size(), prefix) != 0) {
    return bad_cursor();
  }
  std::size_t offset = 0;
  const char* first = plain.data() + prefix.size();
  const char* last = plain.data() + plain.size();
  const auto [end, ec] = std::from_chars(first, last, offset);
  if (ec != std::errc() || end != last) {
    return bad_cursor();
  }
  return offset;
}

} // namespace mailroom::http
