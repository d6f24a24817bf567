#pragma once

// SHA-256 and HMAC-SHA256, from Nettle (Debian's nettle-dev; linked statically into the release
// binary), for idempotency fingerprints, hash-based ids and keys, and serve's session tokens.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <nettle/sha2.h>

namespace mailroom::util {

using Sha256Digest = std::array<std::uint8_t, 32>;

// Incremental hasher: update() any number of times, then digest() once. Changes only itself.
class Sha256 {
public:
  Sha256();

  // Appends `bytes` to the message being hashed.
  void update(std::string_view bytes);

  // Finishes the hash and returns it; the hasher must not be updated afterwards.
  Sha256Digest digest();

private:
  sha256_ctx m_context{};
};

// The SHA-256 of `bytes`.
Sha256Digest sha256(std::string_view bytes);

// The HMAC-SHA256 (RFC 2104) of `message` under `key`.
Sha256Digest hmac_sha256(std::string_view key, std::string_view message);

// `digest` as 64 lowercase hex characters.
std::string to_hex(const Sha256Digest& digest);

} // namespace mailroom::util
