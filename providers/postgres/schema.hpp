#pragma once

// The PostgreSQL store's schema and its migrations. The schema records its own version in the
// one-row table mailroom_schema, with the oldest schema version (and mailroom release) that can
// still use it: additive migrations keep older binaries working; a binary that is older than that
// is refused. Every migration runs in one transaction under a transaction-scoped advisory lock, so
// two hosts that start at once migrate once.

#include <optional>
#include <string>

#include "base/result.hpp"
#include "pg/connection.hpp"
#include "postgres/schema_sql.hpp"

namespace mailroom::providers::postgres {

// The schema version this build writes: one per entry of the migration list (schema_sql.hpp).
// Version 1 has the bead store's schema-v2 tables and columns (beads, deliveries, mailboxes,
// idempotency_keys), so export and import map one to one; version 2 adds seen_via to presence;
// version 3 adds each message's body_bytes and preview (nullable: older binaries keep working);
// version 4 an index; version 5 the event log (events, events_pruned).
inline constexpr int k_schema_version = static_cast<int>(schema_sql::k_migrations.size());
// The oldest schema version whose binaries can use a store at k_schema_version. Raise it to
// k_schema_version only for a migration older binaries cannot live with (a dropped or renamed
// column, a changed meaning); leave it for additive ones.
inline constexpr int k_schema_compat = 1;

// What mailroom_schema says; nullopt when the table does not exist (no store yet).
struct SchemaState {
  int version = 0;
  int min_version = 0;      // the oldest schema version that can use the store
  std::string min_mailroom; // the oldest mailroom release that can use it, for messages
};

// Reads mailroom_schema outside any transaction. nullopt: there is no mailroom schema here.
// Errors: store_error, timeout.
Result<std::optional<SchemaState>> read_schema(pg::Connection& connection);

// Error for a store this build must not use, or empty when it may (`state.min_version` is at most
// k_schema_version). `where` names the store.
std::optional<Error> refuse_newer(const SchemaState& state, const std::string& where);

// Creates the schema on a database that has none (`create`), or brings an older one up to
// k_schema_version: one READ COMMITTED transaction holding pg_advisory_xact_lock, re-reading the
// version once it holds the lock (another host may have migrated meanwhile). A current or newer
// (still compatible) schema is left alone without taking the lock.
// Returns false when there is no schema and `create` is false (the caller reports "no store").
// Errors: store_error (also a newer schema this build cannot use), timeout.
Result<bool> migrate(pg::Connection& connection, bool create, const std::string& where);

} // namespace mailroom::providers::postgres
