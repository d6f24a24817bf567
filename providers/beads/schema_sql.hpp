#pragma once

// The bead store's schema as SQL text, one script per version, and the list of versions
// (k_migrations, at the end) that schema.cpp runs in order and that sets k_schema_version
// (schema.hpp). Version 6, which rewrites rows, is schema_v6.cpp. A script, once released, never
// changes: a change is a new version.

#include <array>
#include <string_view>

namespace mailroom::providers::beads::schema_sql {

// Version 1. A message is one bead (kind 'message'); its recipients are header text on the bead
// and each has a delivery row that holds that recipient's state. priority and created_at are
// copied onto deliveries (they never change) so the inbox index can order without a join.
inline constexpr std::string_view k_schema_v1 = R"sql(
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

// Version 2 (round 2): addresses as written, traces and expiry on messages; ack tracking,
// redelivery, operator actions and watch claims on deliveries (with the sender and expiry copied
// so the hot indexes never join); per-mailbox counters and per-pair times kept by triggers in the
// same transaction as every change, so count/check and peers cost the same at any size; and an
// external-content FTS5 index over subject, body and sender.
inline constexpr std::string_view k_schema_v2 = R"sql(
ALTER TABLE beads ADD COLUMN addressed_to TEXT NOT NULL DEFAULT '';
ALTER TABLE beads ADD COLUMN trace_id TEXT NOT NULL DEFAULT '';
ALTER TABLE beads ADD COLUMN span_id TEXT NOT NULL DEFAULT '';
ALTER TABLE beads ADD COLUMN parent_span_id TEXT;
ALTER TABLE beads ADD COLUMN expires_at INTEGER;
UPDATE beads SET trace_id = lower(hex(randomblob(16))), span_id = lower(hex(randomblob(8)));
CREATE INDEX beads_sender ON beads (sender, created_at);
CREATE INDEX beads_trace ON beads (trace_id, created_at);
CREATE INDEX beads_reply_to ON beads (reply_to) WHERE reply_to IS NOT NULL;

ALTER TABLE deliveries ADD COLUMN sender TEXT NOT NULL DEFAULT '';
ALTER TABLE deliveries ADD COLUMN expires_at INTEGER;
ALTER TABLE deliveries ADD COLUMN ack_state TEXT NOT NULL DEFAULT 'none'
  CHECK (ack_state IN ('none', 'awaiting_ack', 'acked', 'escalated'));
ALTER TABLE deliveries ADD COLUMN acked_at INTEGER;
ALTER TABLE deliveries ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE deliveries ADD COLUMN last_attempt_at INTEGER;
ALTER TABLE deliveries ADD COLUMN next_attempt_at INTEGER;
ALTER TABLE deliveries ADD COLUMN acted_by TEXT;
ALTER TABLE deliveries ADD COLUMN claim_token TEXT;
ALTER TABLE deliveries ADD COLUMN claimed_by TEXT;
ALTER TABLE deliveries ADD COLUMN claim_until INTEGER;
ALTER TABLE deliveries ADD COLUMN handler_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE deliveries ADD COLUMN retry_at INTEGER;
ALTER TABLE deliveries ADD COLUMN set_aside_at INTEGER;
UPDATE deliveries SET sender = (SELECT b.sender FROM beads AS b WHERE b.seq = deliveries.message);

DROP INDEX deliveries_unread;
DROP INDEX deliveries_open;
-- Inbox order is priority, then arrival (created_at, then seq), all in the index.
CREATE INDEX deliveries_unread ON deliveries (recipient, priority, created_at, message, expires_at)
  WHERE read_at IS NULL AND archived_at IS NULL;
CREATE INDEX deliveries_open ON deliveries (recipient, priority, created_at, message, read_at, expires_at)
  WHERE archived_at IS NULL;
CREATE INDEX deliveries_expiring ON deliveries (recipient, expires_at)
  WHERE expires_at IS NOT NULL AND read_at IS NULL AND archived_at IS NULL;
CREATE INDEX deliveries_pending ON deliveries (sender, recipient, created_at)
  WHERE ack_state = 'awaiting_ack';
CREATE INDEX deliveries_escalated ON deliveries (sender, recipient) WHERE ack_state = 'escalated';
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE ack_state = 'awaiting_ack';
CREATE INDEX deliveries_claimable ON deliveries (recipient, priority, created_at, message)
  WHERE read_at IS NULL AND archived_at IS NULL AND set_aside_at IS NULL;

CREATE TABLE mailbox_counts (
  recipient TEXT PRIMARY KEY,
  total     INTEGER NOT NULL,
  unread    INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO mailbox_counts (recipient, total, unread)
  SELECT recipient, sum(archived_at IS NULL), sum(archived_at IS NULL AND read_at IS NULL)
  FROM deliveries GROUP BY recipient;
CREATE TRIGGER deliveries_count_insert AFTER INSERT ON deliveries BEGIN
  INSERT INTO mailbox_counts (recipient, total, unread)
  VALUES (new.recipient, new.archived_at IS NULL, new.archived_at IS NULL AND new.read_at IS NULL)
  ON CONFLICT (recipient) DO UPDATE SET total = total + excluded.total, unread = unread + excluded.unread;
END;
CREATE TRIGGER deliveries_count_update AFTER UPDATE OF read_at, archived_at ON deliveries BEGIN
  UPDATE mailbox_counts
  SET total = total + (new.archived_at IS NULL) - (old.archived_at IS NULL),
      unread = unread + (new.archived_at IS NULL AND new.read_at IS NULL)
                      - (old.archived_at IS NULL AND old.read_at IS NULL)
  WHERE recipient = new.recipient;
END;
CREATE TRIGGER deliveries_count_delete AFTER DELETE ON deliveries BEGIN
  UPDATE mailbox_counts
  SET total = total - (old.archived_at IS NULL),
      unread = unread - (old.archived_at IS NULL AND old.read_at IS NULL)
  WHERE recipient = old.recipient;
END;

CREATE TABLE peer_pairs (
  sender        TEXT NOT NULL,
  recipient     TEXT NOT NULL,
  last_sent_at  INTEGER,
  last_acked_at INTEGER,
  PRIMARY KEY (sender, recipient)
) WITHOUT ROWID;
-- peers lists the pairs a mailbox is on either side of: by sender through the key, by recipient here.
CREATE INDEX peer_pairs_inbound ON peer_pairs (recipient, sender);
INSERT INTO peer_pairs (sender, recipient, last_sent_at, last_acked_at)
  SELECT sender, recipient, max(created_at), max(acked_at) FROM deliveries GROUP BY sender, recipient;
CREATE TRIGGER deliveries_pair_insert AFTER INSERT ON deliveries BEGIN
  INSERT INTO peer_pairs (sender, recipient, last_sent_at) VALUES (new.sender, new.recipient, new.created_at)
  ON CONFLICT (sender, recipient) DO UPDATE
    SET last_sent_at = max(coalesce(last_sent_at, 0), excluded.last_sent_at);
END;
CREATE TRIGGER deliveries_pair_ack AFTER UPDATE OF acked_at ON deliveries WHEN new.acked_at IS NOT NULL BEGIN
  UPDATE peer_pairs SET last_acked_at = max(coalesce(last_acked_at, 0), new.acked_at)
  WHERE sender = new.sender AND recipient = new.recipient;
END;

CREATE VIRTUAL TABLE beads_fts USING fts5(
  subject, body, sender, content = 'beads', content_rowid = 'seq',
  tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);
CREATE TRIGGER beads_fts_insert AFTER INSERT ON beads BEGIN
  INSERT INTO beads_fts (rowid, subject, body, sender) VALUES (new.seq, new.subject, new.body, new.sender);
END;
CREATE TRIGGER beads_fts_delete AFTER DELETE ON beads BEGIN
  INSERT INTO beads_fts (beads_fts, rowid, subject, body, sender)
  VALUES ('delete', old.seq, old.subject, old.body, old.sender);
END;
INSERT INTO beads_fts (beads_fts) VALUES ('rebuild');
)sql";

// Version 3 (views and transfer): an idempotency key outlives its message, since purge keeps keys
// (its message becomes NULL, and a send with the key is still refused); keys are found by message
// so that deleting a message is not a scan of every key; archived deliveries get an index of their
// own, in inbox order (inbox --archived, search --archived).
inline constexpr std::string_view k_schema_v3 = R"sql(
CREATE TABLE idempotency_keys_v3 (
  sender      TEXT NOT NULL,
  key         TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  message     INTEGER REFERENCES beads (seq),
  created_at  INTEGER NOT NULL,
  UNIQUE (sender, key)
);
INSERT INTO idempotency_keys_v3 (sender, key, fingerprint, message, created_at)
  SELECT sender, key, fingerprint, message, created_at FROM idempotency_keys;
DROP TABLE idempotency_keys;
ALTER TABLE idempotency_keys_v3 RENAME TO idempotency_keys;
CREATE INDEX idempotency_keys_message ON idempotency_keys (message) WHERE message IS NOT NULL;
CREATE INDEX deliveries_archived ON deliveries (recipient, priority, created_at, message)
  WHERE archived_at IS NOT NULL;
)sql";

// Version 4 (search): who may see each message, as one 64-bit word per mailbox and 64 seqs
// (visibility.hpp), so that a search tests a match with a shift, not a search of the deliveries'
// key. Built here from the rows (k_visibility_from_rows); afterwards the store's own statements
// keep it as they write (SqliteEngine::mark_visible and forget_visible, sql_visibility.cpp): triggers
// would do the same, but SQLite parses every trigger on each connection's first statement, which
// four of them made 16% of a `count` (callgrind).
inline constexpr std::string_view k_schema_v4 = R"sql(
CREATE TABLE visibility (
  who  TEXT NOT NULL,
  word INTEGER NOT NULL,
  bits INTEGER NOT NULL,
  PRIMARY KEY (who, word)
) WITHOUT ROWID;
)sql";

// Version 5 (team): where each mailbox's presence came from (mail::SeenVia: "hook", "check",
// "wait", "watch", "mcp", "command"); NULL for presence recorded before it.
inline constexpr std::string_view k_schema_v5 = R"sql(
ALTER TABLE mailboxes ADD COLUMN seen_via TEXT;
)sql";

// Version 7 (what reaches an agent): the hook lists deliveries awaiting the mailbox's ack or reply
// first, oldest first (sql.cpp select_awaiting); this index serves that list and its count.
inline constexpr std::string_view k_schema_v7 = R"sql(
CREATE INDEX deliveries_awaiting ON deliveries (recipient, created_at, message, expires_at)
  WHERE ack_state IN ('awaiting_ack', 'escalated') AND read_at IS NULL AND archived_at IS NULL;
)sql";

// Version 8 (live events): the event log (mail/events.hpp), one row per change, written by the
// store's own statements in the change's transaction (events.cpp; no trigger: see v4). seq is
// AUTOINCREMENT so that a seq is never used twice, even after every row was pruned;
// events_pruned holds the highest seq pruned. Additive.
inline constexpr std::string_view k_schema_v8 = R"sql(
CREATE TABLE events (
  seq        INTEGER PRIMARY KEY AUTOINCREMENT,
  at         INTEGER NOT NULL,
  type       TEXT NOT NULL,
  message_id TEXT NOT NULL,
  mailbox    TEXT NOT NULL,
  actor      TEXT NOT NULL
);
CREATE TABLE events_pruned (
  singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
  through   INTEGER NOT NULL
);
INSERT INTO events_pruned (singleton, through) VALUES (1, 0);
)sql";

// Version 9 (team): presence of `human`, who acts without being a registered mailbox
// (sqlstore touch_unregistered); kept apart so that it never registers the name. Additive.
inline constexpr std::string_view k_schema_v9 = R"sql(
CREATE TABLE unregistered_presence (
  name      TEXT PRIMARY KEY,
  last_seen INTEGER NOT NULL,
  seen_via  TEXT
) WITHOUT ROWID;
)sql";

// Version 10 (the life of a request, mail/request.hpp): each delivery of a message whose type
// expects a reply keeps its request_state (A2A's task states; NULL: no reply expected) and when
// it last changed. Deliveries of the built-in request types an older mailroom stored get the state
// they read as: failed when a watcher set them aside, completed when their recipient replied,
// working when read or claimed, else submitted (a [types.NAME] request of the config is left
// without one). The partial indexes hold the owed deliveries (team, trace --recent): open
// requests, and ack-tracked deliveries of no request. Additive.
inline constexpr std::string_view k_schema_v10 = R"sql(
ALTER TABLE deliveries ADD COLUMN request_state TEXT
  CHECK (request_state IN ('submitted', 'working', 'input_required', 'completed', 'failed', 'rejected',
                           'canceled'));
ALTER TABLE deliveries ADD COLUMN request_state_at INTEGER;
UPDATE deliveries SET request_state = CASE
    WHEN set_aside_at IS NOT NULL THEN 'failed'
    WHEN read_at IS NOT NULL OR claim_token IS NOT NULL THEN 'working'
    ELSE 'submitted' END
WHERE message IN (SELECT seq FROM beads WHERE type IN ('task_request', 'cron_task'));
UPDATE deliveries SET request_state = 'completed'
WHERE rowid IN (SELECT d.rowid FROM beads AS r
                JOIN beads AS o ON o.id = r.reply_to
                JOIN deliveries AS d ON d.message = o.seq AND d.recipient = r.sender
                WHERE r.reply_to IS NOT NULL AND d.request_state IN ('submitted', 'working'));
CREATE INDEX deliveries_requests_open ON deliveries (sender, recipient, created_at, expires_at, ack_state)
  WHERE request_state IN ('submitted', 'working');
CREATE INDEX deliveries_owed_plain ON deliveries (sender, recipient, created_at, expires_at, ack_state)
  WHERE request_state IS NULL AND ack_state IN ('awaiting_ack', 'escalated');
)sql";

// Version 11 (Gas City, round 4): the key of `send --dedup` and `--supersede`, kept per sender
// (mail::SendRequest::dedup_key). Every list reads it, so it must come before `body`
// (schema_v6.cpp explains why): `beads` is rebuilt as version 6 rebuilt it, rows copied as they
// are (rowids kept, so the FTS index, the deliveries and the keys still point at them), with the
// new column NULL. The index serves the check of a send (sqlstore send.cpp): the sender's
// messages with one key, newest first. Rewrites every row: `init` and `mailroom migrate` only.
inline constexpr std::string_view k_schema_v11 = R"sql(
DROP TRIGGER IF EXISTS beads_fts_insert;
DROP TRIGGER IF EXISTS beads_fts_delete;
CREATE TABLE beads_v11 (
  seq            INTEGER PRIMARY KEY,
  id             TEXT NOT NULL UNIQUE,
  kind           TEXT NOT NULL DEFAULT 'message',
  status         TEXT NOT NULL DEFAULT 'open',
  sender         TEXT NOT NULL,
  to_list        TEXT NOT NULL DEFAULT '',
  cc_list        TEXT NOT NULL DEFAULT '',
  subject        TEXT NOT NULL,
  created_at     INTEGER NOT NULL,
  thread_id      TEXT NOT NULL,
  reply_to       TEXT,
  priority       INTEGER NOT NULL CHECK (priority BETWEEN 0 AND 4),
  type           TEXT NOT NULL,
  sender_uid     INTEGER NOT NULL,
  sender_host    TEXT NOT NULL,
  addressed_to   TEXT NOT NULL DEFAULT '',
  trace_id       TEXT NOT NULL DEFAULT '',
  span_id        TEXT NOT NULL DEFAULT '',
  parent_span_id TEXT,
  expires_at     INTEGER,
  dedup_key      TEXT,
  body_bytes     INTEGER NOT NULL,
  preview        BLOB NOT NULL,
  body           BLOB NOT NULL
);
INSERT INTO beads_v11 (seq, id, kind, status, sender, to_list, cc_list, subject, created_at, thread_id,
                       reply_to, priority, type, sender_uid, sender_host, addressed_to, trace_id, span_id,
                       parent_span_id, expires_at, body_bytes, preview, body)
SELECT seq, id, kind, status, sender, to_list, cc_list, subject, created_at, thread_id,
       reply_to, priority, type, sender_uid, sender_host, addressed_to, trace_id, span_id,
       parent_span_id, expires_at, body_bytes, preview, body
FROM beads ORDER BY seq;
DROP TABLE beads;
ALTER TABLE beads_v11 RENAME TO beads;
CREATE INDEX beads_thread ON beads (thread_id, created_at);
CREATE INDEX beads_sender ON beads (sender, created_at);
CREATE INDEX beads_trace ON beads (trace_id, created_at);
CREATE INDEX beads_reply_to ON beads (reply_to) WHERE reply_to IS NOT NULL;
CREATE INDEX beads_dedup ON beads (sender, dedup_key, seq) WHERE dedup_key IS NOT NULL;
CREATE TRIGGER beads_fts_insert AFTER INSERT ON beads BEGIN
  INSERT INTO beads_fts (rowid, subject, body, sender) VALUES (new.seq, new.subject, new.body, new.sender);
END;
CREATE TRIGGER beads_fts_delete AFTER DELETE ON beads BEGIN
  INSERT INTO beads_fts (beads_fts, rowid, subject, body, sender)
  VALUES ('delete', old.seq, old.subject, old.body, old.sender);
END;
)sql";

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
};

} // namespace mailroom::providers::beads::schema_sql
