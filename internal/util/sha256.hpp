#pragma once

// SHA-256 (FIPS 180-4), for idempotency fingerprints and hash-based message ids. Small and
// dependency-free; not meant for hashing large streams fast.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

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
  void compress(const std::uint8_t* block);

  std::array<std::uint32_t, 8> m_state{};
  std::array<std::uint8_t, 64> m_buffer{};
  std::size_t m_buffered = 0;
  std::uint64_t m_total_bytes = 0;
};

// The SHA-256 of `bytes`.
Sha256Digest sha256(std::string_view bytes);

// `digest` as 64 lowercase hex characters.
std::string to_hex(const Sha256Digest& digest);

} // namespace mailroom::util
