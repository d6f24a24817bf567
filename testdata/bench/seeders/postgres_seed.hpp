#pragma once

// Synthetic mail in a PostgreSQL store for benchmarks (testdata/bench/postgres.sh), and the store's
// own SQL for the psql baseline, so both sides run the same statements.

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace mailroom::providers::postgres {

// Creates the schema at `url` when missing and adds, in one transaction, `messages` messages over
// `mailboxes` registered mailboxes agent-000, agent-001, ... (message i from agent i to agent
// i+1, round robin, as the bead store's seeder), about `unread_fraction` of them unread, bodies of
// `body_bytes` bytes; then VACUUM ANALYZE (so index-only scans are index-only, as on a store
// autovacuum has seen). Errors: usage for bad arguments, store_error, timeout.
Result<void> seed_bench_store(const std::string& url, std::int64_t messages, int mailboxes,
                              double unread_fraction, std::size_t body_bytes);

// A psql script running what a command runs, with the same SQL text (?N written as $N) as
// PREPARE/EXECUTE on literal values: "count" (mailbox `box`), "check" (the unread page of 3 and
// the unread count in one read-only snapshot), "inbox" (the unread page of 50 and the counts, one
// snapshot), "send" (one SERIALIZABLE transaction storing a message from agent-001 to `box` as
// send does, with NOTIFY). Empty for any other name. Errors: store_error (untranslatable SQL).
Result<std::string> bench_script(std::string_view name, std::string_view box);

} // namespace mailroom::providers::postgres
