#pragma once

// The bead store's schema as SQL text, one script per version, and the list of versions
// (k_migrations, at the end) that schema.cpp runs in order and that sets k_schema_version
// (schema.hpp). Versions 1 to 11 are in schema_sql_released.hpp; version 6, which rewrites rows,
// is schema_v6.cpp. A script, once released, never changes: a change is a new version.

#include <array>
#include <string_view>

#include "beads/schema_sql_released.hpp"

namespace mailroom::providers::beads::schema_sql {

// Version 12 (schedules, contract "Schedules"): schedules and their firings. A schedule's id is
// "sch-<16 hex>", never reused, so a re-added name starts a new history; one live row per
// (sender, name). A firing is unique per (schedule, slot, kind): two firers that race for a slot
// cannot both record it, and the firing's message is written in the same transaction. The
// schedule and slot of a message a schedule sent live in scheduled_messages (a column of beads
// after the body would cost every list; schema_v6.cpp). firers holds each firer's heartbeat.
// Additive.
inline constexpr std::string_view k_schema_v12 = R"sql(
CREATE TABLE schedules (
  id              TEXT PRIMARY KEY,
  sender          TEXT NOT NULL,
  name            TEXT NOT NULL,
  created_at      INTEGER NOT NULL,
  created_by      TEXT NOT NULL,
  rule_kind       TEXT NOT NULL CHECK (rule_kind IN ('at', 'every', 'cron')),
  at_ms           INTEGER,
  every_ms        INTEGER,
  anchor          INTEGER,
  cron            TEXT,
  tz              TEXT NOT NULL,
  start_at        INTEGER,
  until_at        INTEGER,
  catch_up        TEXT NOT NULL,
  overlap         TEXT NOT NULL,
  to_list         TEXT NOT NULL,
  cc_list         TEXT NOT NULL,
  subject         TEXT,
  body            BLOB NOT NULL,
  priority        INTEGER NOT NULL,
  type            TEXT NOT NULL,
  ack             INTEGER NOT NULL,
  ttl_ms          INTEGER,
  notify          INTEGER NOT NULL,
  idempotency_key TEXT,
  next_at         INTEGER,
  paused_at       INTEGER,
  ended_at        INTEGER,
  end_reason      TEXT,
  last_run_now    INTEGER,
  escalated       INTEGER NOT NULL DEFAULT 0,
  last_slot       INTEGER,
  last_kind       TEXT
) WITHOUT ROWID;
CREATE UNIQUE INDEX schedules_live_name ON schedules (sender, name) WHERE ended_at IS NULL;
CREATE UNIQUE INDEX schedules_key ON schedules (sender, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX schedules_due ON schedules (next_at) WHERE ended_at IS NULL AND paused_at IS NULL;

CREATE TABLE firings (
  seq          INTEGER PRIMARY KEY AUTOINCREMENT,
  schedule     TEXT NOT NULL REFERENCES schedules (id),
  slot         INTEGER NOT NULL,
  kind         TEXT NOT NULL CHECK (kind IN ('slot', 'run_now')),
  fired_at     INTEGER NOT NULL,
  outcome      TEXT NOT NULL,
  message_id   TEXT,
  slot_count   INTEGER NOT NULL DEFAULT 1,
  through_slot INTEGER,
  error_code   TEXT NOT NULL DEFAULT '',
  detail       TEXT NOT NULL DEFAULT '',
  UNIQUE (schedule, slot, kind)
);
CREATE INDEX firings_history ON firings (schedule, seq);

CREATE TABLE scheduled_messages (
  message  INTEGER PRIMARY KEY REFERENCES beads (seq) ON DELETE CASCADE,
  schedule TEXT NOT NULL,
  slot     INTEGER NOT NULL
);

CREATE TABLE firers (
  host    TEXT NOT NULL,
  pid     INTEGER NOT NULL,
  kind    TEXT NOT NULL,
  beat_at INTEGER NOT NULL,
  PRIMARY KEY (host, pid)
) WITHOUT ROWID;
)sql";

// Version 13 (wake, contract "Reaching an idle agent (wake)"): a mailbox's wake target with the
// host, uid and tmux socket it was set from, and hook_at, the last time its hook ran (written on
// every check --inject while it has a target); the wake ledger, one row per (recipient, message,
// target, attempt) so no wake is recorded or run twice, with its outcome and times; wake_pairs,
// one row per (recipient, target) whose last_wake_at a conditional update moves, in the same
// transaction as the ledger row it claims: the cooldown. Additive.
inline constexpr std::string_view k_schema_v13 = R"sql(
CREATE TABLE wake_targets (
  mailbox TEXT PRIMARY KEY,
  target  TEXT NOT NULL,
  host    TEXT NOT NULL,
  uid     INTEGER NOT NULL,
  socket  TEXT NOT NULL DEFAULT '',
  set_at  INTEGER NOT NULL,
  hook_at INTEGER
) WITHOUT ROWID;

CREATE TABLE wake_ledger (
  recipient     TEXT NOT NULL,
  message       TEXT NOT NULL,
  target        TEXT NOT NULL,
  attempt       INTEGER NOT NULL,
  outcome       TEXT NOT NULL CHECK (outcome IN ('pending', 'sent', 'failed', 'deferred', 'combined',
                                                 'skipped', 'unreachable')),
  reason        TEXT NOT NULL DEFAULT '',
  host          TEXT NOT NULL,
  uid           INTEGER NOT NULL,
  socket        TEXT NOT NULL DEFAULT '',
  created_at    INTEGER NOT NULL,
  due_at        INTEGER NOT NULL,
  claimed_at    INTEGER,
  updated_at    INTEGER NOT NULL,
  combined      INTEGER NOT NULL DEFAULT 0,
  combined_into TEXT,
  PRIMARY KEY (recipient, message, target, attempt)
) WITHOUT ROWID;
CREATE INDEX wake_ledger_due ON wake_ledger (outcome, due_at);
CREATE INDEX wake_ledger_newest ON wake_ledger (recipient, updated_at);

CREATE TABLE wake_pairs (
  recipient    TEXT NOT NULL,
  target       TEXT NOT NULL,
  last_wake_at INTEGER,
  PRIMARY KEY (recipient, target)
) WITHOUT ROWID;
)sql";

// Version 14 (the hook's order, contract "Three surfaces, one truth"): the unread deliveries the
// mailbox owes (MR_SQL_OWED_STATES, sqlstore/sql_rules.hpp), oldest first, so the hook lists and
// counts them without reading the rest of the mailbox; every column the count reads is in it, so
// the count reads no row of the table (a cold hook would read a page per owed delivery otherwise).
// deliveries_awaiting (v7) served the older
// rule, which knew acks only, and goes. Additive (an index added, one dropped).
inline constexpr std::string_view k_schema_v14 = R"sql(
DROP INDEX IF EXISTS deliveries_awaiting;
CREATE INDEX deliveries_owed_unread ON deliveries (recipient, created_at, message, priority, expires_at,
                                                 request_state, ack_state, read_at, archived_at)
  WHERE read_at IS NULL AND archived_at IS NULL
    AND (request_state IN ('submitted', 'working') OR (request_state IS NULL AND ack_state IN ('awaiting_ack', 'escalated')));
)sql";

// Sets the bits of every message after seq ?1 from its sender and deliveries. The bits of one
// word are distinct powers of two, so their distinct sum is their OR (bit 63's negative value
// cannot overflow it).
inline constexpr std::string_view k_visibility_from_rows = R"sql(
INSERT INTO visibility (who, word, bits)
SELECT who, seq >> 6, sum(DISTINCT 1 << (seq & 63))
FROM (SELECT sender AS who, seq FROM beads WHERE seq > ?1
      UNION ALL SELECT recipient, message FROM deliveries WHERE message > ?1)
GROUP BY 1, 2
ON CONFLICT (who, word) DO UPDATE SET bits = bits | excluded.bits)sql";

// What a version runs after its script, if anything (schema.cpp).
enum class Procedure {
  none,
  build_visibility, // the visibility table from every row (k_visibility_from_rows)
  rebuild_beads_v6, // `beads` rebuilt, every row rewritten (schema_v6.cpp)
};

// One schema version: its script, then its procedure. A version that rewrites rows (a rebuild of
// a table, by script or procedure) runs with foreign keys off and checks them after; older stores
// wait for `init` or `mailroom migrate` to run it (schema.hpp, k_last_rewriting_version).
struct Migration {
  std::string_view script;
  Procedure then = Procedure::none;
  bool rewrites_rows = false;
};

// Every version in order: version N is k_migrations[N - 1], and the number of entries is the
// schema version this build writes. A new version is a script above and its entry here. A column
// a list reads must not be added after `body` (schema_v6.cpp): adding one is a rebuild.
inline constexpr std::array k_migrations = {
    Migration{k_schema_v1},                              // 1
    Migration{k_schema_v2},                              // 2
    Migration{k_schema_v3},                              // 3
    Migration{k_schema_v4, Procedure::build_visibility}, // 4
    Migration{k_schema_v5},                              // 5
    Migration{{}, Procedure::rebuild_beads_v6, true},    // 6
    Migration{k_schema_v7},                              // 7
    Migration{k_schema_v8},                              // 8
    Migration{k_schema_v9},                              // 9
    Migration{k_schema_v10},                             // 10
    Migration{k_schema_v11, Procedure::none, true},      // 11
    Migration{k_schema_v12},                             // 12
    Migration{k_schema_v13},                             // 13
    Migration{k_schema_v14},                             // 14
};

} // namespace mailroom::providers::beads::schema_sql
