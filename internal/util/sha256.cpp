#include "util/sha256.hpp"

#include <nettle/hmac.h>

namespace mailroom::util {

namespace {

const std::uint8_t* bytes_of(std::string_view text)
{
  return reinterpret_cast<const std::uint8_t*>(text.data());
}

} // namespace

Sha256::Sha256()
{
  sha256_init(&m_context);
}

void Sha256::update(std::string_view bytes)
{
  sha256_update(&m_context, bytes.size(), bytes_of(bytes));
}

Sha256Digest Sha256::digest()
{
  Sha256Digest out{};
  sha256_digest(&m_context, out.size(), out.data());
  return out;
}

Sha256Digest sha256(std::string_view bytes)
{
  Sha256 hasher;
  hasher.update(bytes);
  return hasher.digest();
}

Sha256Digest hmac_sha256(std::string_view key, std::string_view message)
{
  hmac_sha256_ctx context{};
  hmac_sha256_set_key(&context, key.size(), bytes_of(key));
  hmac_sha256_update(&context, message.size(), bytes_of(message));
  Sha256Digest out{};
  hmac_sha256_digest(&context, out.size(), out.data());
  return out;
}

std::string to_hex(const Sha256Digest& digest)
{
  constexpr std::string_view k_digits = "0123456789abcdef";
  std::string out;
  out.reserve(digest.size() * 2);
  for (const std::uint8_t byte : digest) {
    out.push_back(k_digits[byte >> 4U]);
    out.push_back(k_digits[byte & 0x0FU]);
  }
  return out;
}

} // namespace mailroom::util
