#include "beads/schema.hpp"

#include <fmt/format.h>

namespace mailroom::providers::beads {

namespace {

// Version 1. A message is one bead (kind 'message'); its recipients are header text on the bead
// and each has a delivery row that holds that recipient's state. priority and created_at are
// copied onto deliveries (they never change) so the inbox index can order without a join.
constexpr std::string_view k_schema_v1 = R"sql(
CREATE TABLE beads (
  seq          INTEGER PRIMARY KEY,
  id           TEXT NOT NULL UNIQUE,
  kind         TEXT NOT NULL DEFAULT 'message',
  status       TEXT NOT NULL DEFAULT 'open',
  sender       TEXT NOT NULL,
  to_list      TEXT NOT NULL DEFAULT '',
  cc_list      TEXT NOT NULL DEFAULT '',
  subject      TEXT NOT NULL,
  body         BLOB NOT NULL,
  created_at   INTEGER NOT NULL,
  thread_id    TEXT NOT NULL,
  reply_to     TEXT,
  priority     INTEGER NOT NULL CHECK (priority BETWEEN 0 AND 4),
  type         TEXT NOT NULL,
  sender_uid   INTEGER NOT NULL,
  sender_host  TEXT NOT NULL
);
CREATE INDEX beads_thread ON beads (thread_id, created_at);

CREATE TABLE deliveries (
  message      INTEGER NOT NULL REFERENCES beads (seq),
  recipient    TEXT NOT NULL,
  kind         TEXT NOT NULL CHECK (kind IN ('to', 'cc')),
  priority     INTEGER NOT NULL,
  created_at   INTEGER NOT NULL,
  delivered_at INTEGER NOT NULL,
  read_at      INTEGER,
  archived_at  INTEGER,
  PRIMARY KEY (message, recipient)
);
-- Partial and covering: inbox, check and count read only the caller's open deliveries, already in
-- inbox order, and never touch the table rows (read_at/archived_at make the index covering).
CREATE INDEX deliveries_unread
  ON deliveries (recipient, priority, created_at, message, read_at, archived_at)
  WHERE read_at IS NULL AND archived_at IS NULL;
CREATE INDEX deliveries_open
  ON deliveries (recipient, priority, created_at, message, read_at, archived_at)
  WHERE archived_at IS NULL;

CREATE TABLE mailboxes (
  name          TEXT PRIMARY KEY,
  registered_at INTEGER NOT NULL,
  retired_at    INTEGER,
  last_seen     INTEGER
) WITHOUT ROWID;

CREATE TABLE idempotency_keys (
  sender      TEXT NOT NULL,
  key         TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  message     INTEGER NOT NULL REFERENCES beads (seq),
  created_at  INTEGER NOT NULL,
  UNIQUE (sender, key)
);
)sql";

Result<int> user_version(sqlite::Database& db)
{
  TRY_ASSIGN(db::Statement* statement, db.cached("PRAGMA user_version"));
  TRY_ASSIGN(const bool has_row, statement->step());
  const int version = has_row ? statement->get<int>(0) : 0;
  statement->reset();
  return version;
}

Error too_new(const sqlite::Database& db, int version)
{
  return make_error(
      ErrorCode::store_error,
      fmt::format("store \"{}\" has schema version {}, newer than this mailroom understands ({})",
                  db.path(), version, k_schema_version),
      "upgrade mailroom");
}

} // namespace

Result<void> migrate(sqlite::Database& db)
{
  TRY_ASSIGN(int version, user_version(db));
  if (version == k_schema_version) {
    return {};
  }
  if (version > k_schema_version) {
    return too_new(db, version);
  }
  TRY_ASSIGN(auto transaction, db::Transaction::begin(db, db::TransactionKind::write));
  // Another process may have migrated while this one waited for the lock.
  TRY_ASSIGN(version, user_version(db));
  if (version > k_schema_version) {
    return too_new(db, version);
  }
  if (version < 1) {
    TRY(db.execute_script(k_schema_v1));
  }
  // Future migrations go here: if (version < 2) { ... }
  if (version < k_schema_version) {
    // PRAGMA takes no bound parameters; the version is a compile-time constant.
    static_assert(k_schema_version == 1, "update the user_version statement below");
    TRY(db.execute_script("PRAGMA user_version = 1"));
  }
  return transaction.commit();
}

} // namespace mailroom::providers::beads
