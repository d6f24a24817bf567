#pragma once

// The v6 migration of the bead store (schema_v6.cpp): `beads` rebuilt with `body_bytes` and
// `preview` before `body`, and `body` last.

#include "base/result.hpp"
#include "sqlite/database.hpp"

namespace mailroom::providers::beads {

// Rebuilds `beads` (every row rewritten, rowids kept) inside the caller's write transaction, with
// foreign keys off (the caller's job: PRAGMA foreign_keys cannot change inside a transaction).
// Errors: store_error, timeout.
Result<void> rebuild_beads_v6(sqlite::Database& db);

} // namespace mailroom::providers::beads
