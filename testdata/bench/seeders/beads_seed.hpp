#pragma once

// Benchmark fixtures: a bead store filled quickly with synthetic mail.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "base/result.hpp"
#include "mail/settings.hpp"

namespace mailroom::providers::beads {

// Opens (creating) the store `settings` name (ids get the prefix "mr") and adds, in ONE transaction,
// `messages` messages spread over `mailboxes` registered mailboxes `agent-000`, `agent-001`, ... (message i
// goes from agent i to agent i+1, round robin), with about `unread_fraction` (0..1) of the deliveries unread
// and bodies of `body_bytes` bytes; then runs ANALYZE and checkpoints. Rows go in through the
// store's own triggers, so the counters, peer pairs and full-text index are exactly what mailroom
// would have written. Adds to whatever the store already holds.
// Errors: usage for bad arguments, store_error, timeout.
Result<void> seed_bench_store(const mail::StoreSettings& settings, std::int64_t messages, int mailboxes,
                              double unread_fraction, std::size_t body_bytes);

} // namespace mailroom::providers::beads

namespace mailroom::providers::beads {

// The SQL the benchmark's sqlite3-shell baseline runs, so both sides run the same statements:
// "count" (the count query, ?1 = mailbox, ?2 = now in ms), "inbox" (the unread page, ?1 = mailbox,
// ?2 = now, ?3 = body bytes, ?4 = limit) and "send" (one BEGIN IMMEDIATE transaction storing one
// message from agent-001 to agent-002 the way send does). Empty for any other name.
std::string_view bench_sql(std::string_view name);

} // namespace mailroom::providers::beads
