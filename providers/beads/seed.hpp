#pragma once

// Benchmark fixtures: a bead store filled quickly with synthetic mail.

#include <cstddef>
#include <cstdint>

#include "mail/result.hpp"
#include "mail/settings.hpp"

namespace mailroom::providers::beads {

// Opens (creating) the store `settings` name and adds, in ONE transaction, `messages` messages
// spread over `mailboxes` registered mailboxes `agent-000`, `agent-001`, ... (message i goes from
// agent i to agent i+1, round robin), with about `unread_fraction` (0..1) of the deliveries unread
// and bodies of `body_bytes` bytes; then runs ANALYZE. Adds to whatever the store already holds.
// Errors: usage for bad arguments, store_error, timeout.
mail::Result<void> seed_bench_store(const mail::StoreSettings& settings, std::int64_t messages,
                                    int mailboxes, double unread_fraction, std::size_t body_bytes);

} // namespace mailroom::providers::beads
