#pragma once

// Size caps and default numbers, each named once. Caps are enforced before any write begins
// (each cap's error names it); too large is a usage error, never a silent truncation.

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace mailroom::mail {

inline constexpr std::size_t k_max_body_bytes = 10U * 1024U * 1024U; // 10 MiB
inline constexpr std::size_t k_max_subject_bytes = 4096;
// A body's preview: what lists, check and the hook read instead of the body (message.hpp).
inline constexpr std::size_t k_preview_bytes = 4096;
inline constexpr std::size_t k_max_recipients = 10000;
inline constexpr std::size_t k_max_idempotency_key_bytes = 256;

// Lists show this many messages unless --limit or --no-limit.
inline constexpr std::size_t k_default_list_limit = 50;
// check --inject lists this many messages unless --limit.
inline constexpr std::size_t k_default_inject_limit = 3;
// reply --all to more recipients than this needs --yes.
inline constexpr std::size_t k_reply_all_confirm_above = 10;
// Read-only commands record presence (last_seen) at most this often.
inline constexpr std::int64_t k_presence_interval_ms = 60'000;

// How long a writer waits for the SQLite write lock.
inline constexpr std::chrono::milliseconds k_default_busy_timeout{5000};
// [store] timeout: the client-side bound on a wait for a PostgreSQL server over a dead link.
inline constexpr std::chrono::milliseconds k_default_store_timeout{30000};
// The hook's hard time budget (check --inject, --hook-format) unless --budget,
// $MAILROOM_HOOK_BUDGET or [hooks] budget says otherwise, and the most any of them may ask for.
inline constexpr std::chrono::milliseconds k_default_hook_budget{1000};
inline constexpr std::chrono::milliseconds k_max_hook_budget{600'000};
// How long one exec script invocation may run.
inline constexpr std::chrono::milliseconds k_default_exec_timeout{30000};
// How much an exec script may print.
inline constexpr std::size_t k_exec_output_cap = 16U * 1024U * 1024U;
// How long a PostgreSQL connection attempt may take when the URL does not say.
inline constexpr std::chrono::milliseconds k_default_connect_timeout{5000};

} // namespace mailroom::mail
