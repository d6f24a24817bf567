#pragma once

// Who may see a message, kept as bits so that a search tests each match with a shift instead of
// a search of the deliveries' key.
//
// The table visibility (schema v4) holds one 64-bit word per mailbox and 64 consecutive message
// seqs: bit (seq & 63) of the row (who, seq >> 6) is set exactly when `who` sent message seq or
// has a delivery of it. The store sets the bits in the transaction that inserts the message or the
// delivery (send, reply, import: SqliteEngine::mark_visible; the benchmark seed and the v4 migration:
// build_visibility) and clears them in the one that purges it.
//
//   mailroom_visible(who, seq) -> 1 when the mailbox `who` may see message `seq`, else 0
//
// reads the caller's rows through one cursor kept for the whole statement (SQLite's auxiliary
// data on the constant `who`): for seqs in ascending order, as an FTS5 match yields them, it
// moves forward a row or two and seeks only across a gap, so a word in 10,000 messages costs a
// few hundred row steps instead of 10,000 index searches. Any order gives the right answer.
// `who` must be the same value on every row of a statement (a bound parameter or a literal).

#include "base/result.hpp"
#include "sqlite/database.hpp"

namespace mailroom::providers::beads {

// Registers mailroom_visible on `db` (direct use only: not callable from triggers or views).
Result<void> register_visibility(sqlite::Database& db);

} // namespace mailroom::providers::beads
