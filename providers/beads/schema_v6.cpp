// Version 6 of the bead store's schema (schema.hpp): previews beside the body, the body last.
//
// SQLite stores a row's columns in order; a column after a large body is reached only by walking
// the body's overflow chain (one page per 4 KiB of body). So `body` is the last column of `beads`,
// and `body_bytes` (its size) and `preview` (mail::preview_length of it) come before it: lists,
// check and the hook read those and never a page of the body. A column added later with ALTER
// TABLE would land after `body`: a new column a list reads needs another rebuild like this one
// (schema_test.cpp checks that `body` stays last).
//
// Moving the bodies rewrites every row, so this migration runs only in `init` and `mailroom
// migrate` (schema.hpp, RowRewrites).

#include "beads/schema_v6.hpp"

#include "mail/limits.hpp"
#include "mail/message.hpp"

namespace mailroom::providers::beads {

namespace {

// beads_v6 repeats most of version 1's beads columns (schema_sql.hpp) on purpose: a released
// script never changes, so each version spells out the table it makes, and an old store migrates
// through exactly the scripts it missed.
constexpr std::string_view k_create = R"sql(
DROP TRIGGER IF EXISTS beads_fts_insert;
DROP TRIGGER IF EXISTS beads_fts_delete;
CREATE TABLE beads_v6 (
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
  body_bytes     INTEGER NOT NULL,
  preview        BLOB NOT NULL,
  body           BLOB NOT NULL
);
)sql";

// One row at a time, so the preview is cut by the same function a send uses. The body is copied
// as stored (a v1 store may hold it as TEXT; length and prefix are taken of its bytes).
constexpr std::string_view k_each = R"sql(
SELECT seq, length(CAST(body AS BLOB)) AS body_bytes, substr(CAST(body AS BLOB), 1, ?1) AS head FROM beads
ORDER BY seq)sql";

constexpr std::string_view k_copy = R"sql(
INSERT INTO beads_v6 (seq, id, kind, status, sender, to_list, cc_list, subject, created_at, thread_id,
                      reply_to, priority, type, sender_uid, sender_host, addressed_to, trace_id, span_id,
                      parent_span_id, expires_at, body_bytes, preview, body)
SELECT seq, id, kind, status, sender, to_list, cc_list, subject, created_at, thread_id,
       reply_to, priority, type, sender_uid, sender_host, addressed_to, trace_id, span_id,
       parent_span_id, expires_at, ?2, ?3, body
FROM beads WHERE seq = ?1)sql";

// The table keeps its name, so the FTS index (content = 'beads', rowid = seq) and the foreign keys
// of deliveries and idempotency_keys point at the new table; the rowids do not change.
constexpr std::string_view k_swap = R"sql(
DROP TABLE beads;
ALTER TABLE beads_v6 RENAME TO beads;
CREATE INDEX beads_thread ON beads (thread_id, created_at);
CREATE INDEX beads_sender ON beads (sender, created_at);
CREATE INDEX beads_trace ON beads (trace_id, created_at);
CREATE INDEX beads_reply_to ON beads (reply_to) WHERE reply_to IS NOT NULL;
CREATE TRIGGER beads_fts_insert AFTER INSERT ON beads BEGIN
  INSERT INTO beads_fts (rowid, subject, body, sender) VALUES (new.seq, new.subject, new.body, new.sender);
END;
CREATE TRIGGER beads_fts_delete AFTER DELETE ON beads BEGIN
  INSERT INTO beads_fts (beads_fts, rowid, subject, body, sender)
  VALUES ('delete', old.seq, old.subject, old.body, old.sender);
END;
)sql";

} // namespace

Result<void> rebuild_beads_v6(sqlite::Database& db)
{
  TRY(db.execute_script(k_create));
  TRY_ASSIGN(sqlite::Statement each, db.prepare(k_each));
  TRY_ASSIGN(sqlite::Statement copy, db.prepare(k_copy));
  TRY(each.bind(static_cast<std::int64_t>(mail::k_preview_bytes + 4)));
  TRY(each.for_each_row([&](const db::Statement& row) -> Result<void> {
    const std::int64_t seq = row.get<std::int64_t>("seq");
    const std::int64_t bytes = row.get<std::int64_t>("body_bytes");
    const std::string head = row.get<std::string>("head");
    const std::string preview = head.substr(0, mail::preview_length(head, mail::k_preview_bytes));
    TRY(copy.bind(seq, bytes, db::Blob{preview}));
    TRY(copy.exec());
    return {};
  }));
  return db.execute_script(k_swap);
}

} // namespace mailroom::providers::beads
