#include "util/sha256.hpp"

#include <algorithm>
#include <cstring>

namespace mailroom::util {

namespace {

constexpr std::array<std::uint32_t, 64> k_round_constants = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

constexpr std::array<std::uint32_t, 8> k_initial_state = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                                          0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

constexpr std::uint32_t rotr(std::uint32_t x, unsigned n)
{
  return (x >> n) | (x << (32U - n));
}

} // namespace

Sha256::Sha256() : m_state(k_initial_state) {}

void Sha256::compress(const std::uint8_t* block)
{
  std::array<std::uint32_t, 64> w{};
  for (std::size_t i = 0; i < 16; ++i) {
    w[i] = (std::uint32_t{block[4 * i]} << 24U) | (std::uint32_t{block[4 * i + 1]} << 16U) |
           (std::uint32_t{block[4 * i + 2]} << 8U) | std::uint32_t{block[4 * i + 3]};
  }
  for (std::size_t i = 16; i < 64; ++i) {
    const std::uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3U);
    const std::uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10U);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  std::uint32_t a = m_state[0];
  std::uint32_t b = m_state[1];
  std::uint32_t c = m_state[2];
  std::uint32_t d = m_state[3];
  std::uint32_t e = m_state[4];
  std::uint32_t f = m_state[5];
  std::uint32_t g = m_state[6];
  std::uint32_t h = m_state[7];
  for (std::size_t i = 0; i < 64; ++i) {
    const std::uint32_t s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
    const std::uint32_t choose = (e & f) ^ (~e & g);
    const std::uint32_t t1 = h + s1 + choose + k_round_constants[i] + w[i];
    const std::uint32_t s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
    const std::uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
    const std::uint32_t t2 = s0 + majority;
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  m_state[0] += a;
  m_state[1] += b;
  m_state[2] += c;
  m_state[3] += d;
  m_state[4] += e;
  m_state[5] += f;
  m_state[6] += g;
  m_state[7] += h;
}

void Sha256::update(std::string_view bytes)
{
  const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
  std::size_t remaining = bytes.size();
  m_total_bytes += remaining;
  while (remaining > 0) {
    const std::size_t take = std::min(remaining, m_buffer.size() - m_buffered);
    std::memcpy(m_buffer.data() + m_buffered, data, take);
    m_buffered += take;
    data += take;
    remaining -= take;
    if (m_buffered == m_buffer.size()) {
      compress(m_buffer.data());
      m_buffered = 0;
    }
  }
}

Sha256Digest Sha256::digest()
{
  const std::uint64_t total_bits = m_total_bytes * 8U;
  // Padding: one 0x80 byte, zeros up to 56 mod 64, then the big-endian bit length.
  std::array<std::uint8_t, 72> padding{};
  padding[0] = 0x80;
  const std::size_t pad_len = (m_buffered < 56 ? 56 - m_buffered : 120 - m_buffered);
  for (std::size_t i = 0; i < 8; ++i) {
    padding[pad_len + i] = static_cast<std::uint8_t>(total_bits >> (56U - 8U * i));
  }
  const std::uint64_t saved_total = m_total_bytes;
  update(std::string_view(reinterpret_cast<const char*>(padding.data()), pad_len + 8));
  m_total_bytes = saved_total;

  Sha256Digest out{};
  for (std::size_t i = 0; i < 8; ++i) {
    out[4 * i] = static_cast<std::uint8_t>(m_state[i] >> 24U);
    out[4 * i + 1] = static_cast<std::uint8_t>(m_state[i] >> 16U);
    out[4 * i + 2] = static_cast<std::uint8_t>(m_state[i] >> 8U);
    out[4 * i + 3] = static_cast<std::uint8_t>(m_state[i]);
  }
  return out;
}

Sha256Digest sha256(std::string_view bytes)
{
  Sha256 hasher;
  hasher.update(bytes);
  return hasher.digest();
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
