#pragma once

// Size caps, enforced before any write begins (reliability.md §2.4). Too large is a usage error,
// never a silent truncation.

#include <cstddef>

namespace mailroom::mail {

inline constexpr std::size_t k_max_body_bytes = 10U * 1024U * 1024U; // 10 MiB
inline constexpr std::size_t k_max_subject_bytes = 4096;
inline constexpr std::size_t k_max_recipients = 10000;
inline constexpr std::size_t k_max_idempotency_key_bytes = 256;

} // namespace mailroom::mail
