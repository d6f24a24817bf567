#pragma once

// The bead store's schema and its migrations, versioned with PRAGMA user_version.

#include <cstddef>

#include "base/result.hpp"
#include "beads/schema_sql.hpp"
#include "sqlite/database.hpp"

namespace mailroom::providers::beads {

// The schema version this build writes: one per entry of the migration list (schema_sql.hpp).
inline constexpr int k_schema_version = static_cast<int>(schema_sql::k_migrations.size());

// The newest version whose migration rewrites rows (v6 moves every body): a store older than this
// is migrated only by `init` and `mailroom migrate` (contract, "Migrations"). Taken from the list.
inline constexpr int k_last_rewriting_version = [] {
  int last = 0;
  for (std::size_t index = 0; index < schema_sql::k_migrations.size(); ++index) {
    if (schema_sql::k_migrations[index].rewrites_rows) {
      last = static_cast<int>(index) + 1;
    }
  }
  return last;
}();

// Whether this open may run a migration that rewrites rows.
enum class RowRewrites {
  refuse, // every command but init and migrate: an older store is store_error "needs_migrate"
  allow,  // init, migrate
};

// Brings `db` to k_schema_version: creates the tables on an empty database, or runs the missing
// migrations, all in one BEGIN IMMEDIATE transaction. Reads user_version first and takes no write
// lock when the schema is current. A store that needs a row-rewriting migration while `rewrites`
// is refuse is store_error, reason "needs_migrate" ("run 'mailroom migrate'"), and nothing is
// written. Errors: store_error (also for a schema newer than this build), timeout.
Result<void> migrate(sqlite::Database& db, RowRewrites rewrites);

// True when a store at schema `version` needs a row-rewriting migration to reach this build's.
bool needs_row_rewrite(int version);

// Sets the visibility bits (visibility.hpp) of every message with a seq above `after_seq` from its
// sender and its deliveries, in the caller's transaction: the v4 migration builds the table with
// it, the benchmark seed after its bulk inserts. Errors: store_error.
Result<void> build_visibility(sqlite::Database& db, std::int64_t after_seq);

// The schema version `db` records (PRAGMA user_version; 0 for an empty or foreign database).
// Errors: store_error (also for a file that is not a database).
Result<int> schema_version(sqlite::Database& db);

// True when `db` has exactly this build's schema (nothing to migrate). Reads only.
// Errors: store_error for a schema newer than this build (and for a file that is not a database).
Result<bool> schema_is_current(sqlite::Database& db);

} // namespace mailroom::providers::beads
