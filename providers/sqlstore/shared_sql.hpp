#pragma once

// The SQL both engines share: every statement whose text is the same for SQLite and
// PostgreSQL is written here once (plain SQL both read alike: no engine functions, sums of CASE
// rather than of booleans, parameters whose type the server can infer from the column they meet).
// Each engine's Queries starts from these parts and sets only the statements of its own dialect
// (providers/beads/sql*.cpp, providers/postgres/sql*.cpp); the store logic never reads them
// directly. A statement whose text differs between the engines only by a token (a cast, rowid or
// ordinal, the message columns) is written once in dialect_sql.hpp. queries.hpp documents every
// statement's parameters and columns. The mail rules spliced into the dialects' statements
// (unread, inbox order, message columns) are in sql_rules.hpp.

#include <string_view>

#include "mail/delivery_fields.hpp"
#include "sqlstore/message_sql.hpp"
#include "sqlstore/queries.hpp"
#include "sqlstore/sql_rules.hpp"

namespace mailroom::providers::sqlstore::shared_sql {

// A delivery's stored columns from the field table (mail/delivery_fields.hpp), each after a comma,
// so that a statement names its own first column: MR_SQL_DELIVERY_FIELDS one ", <column>" per
// field, MR_SQL_DELIVERY_FIELDS_OF_D one ", d.<column> AS <column>" (deliveries as `d`).
#define MR_SQL_DELIVERY_FIELD(column, export_key, kind, view, ...) ", " #column
#define MR_SQL_DELIVERY_FIELD_OF_D(column, export_key, kind, view, ...) ", d." #column " AS " #column
#define MR_SQL_DELIVERY_FIELDS MR_DELIVERY_FIELDS(MR_SQL_DELIVERY_FIELD)
#define MR_SQL_DELIVERY_FIELDS_OF_D MR_DELIVERY_FIELDS(MR_SQL_DELIVERY_FIELD_OF_D)

// The columns of TransferQueries::deliveries and ::delivery (the message's seq, then every stored
// field), and of ::keys and ::key.
#define MR_SQL_DELIVERY_COLUMNS "message" MR_SQL_DELIVERY_FIELDS " "
#define MR_SQL_KEY_COLUMNS                                                                                   \
  "k.sender AS sender, k.key AS key, k.fingerprint AS fingerprint, b.id AS message, "                        \
  "k.created_at AS created_at "

// The columns of HealthQueries::select_due.
#define MR_SQL_DUE_COLUMNS                                                                                   \
  "d.message AS message, b.id AS id, d.sender AS sender, d.recipient AS recipient, "                         \
  "b.subject AS subject, b.thread_id AS thread_id, d.created_at AS created_at, "                             \
  "d.attempts AS attempts "

// The shared statements of CoreQueries; the engine sets the others.
inline constexpr CoreQueries k_core = {
    .select_key = R"sql(
SELECT k.fingerprint AS fingerprint, b.id AS id
FROM idempotency_keys AS k LEFT JOIN beads AS b ON b.seq = k.message
WHERE k.sender = ?1 AND k.key = ?2)sql",

    .insert_key = R"sql(
INSERT INTO idempotency_keys (sender, key, fingerprint, message, created_at) VALUES (?1, ?2, ?3, ?4, ?5))sql",

    .insert_message = message_sql::k_insert_message, // from the field table

    .insert_delivery = R"sql(
INSERT INTO deliveries (message, recipient, kind, priority, created_at, delivered_at, sender,
                        expires_at, ack_state, next_attempt_at, request_state)
VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6, ?7, ?8, ?9, ?10))sql",

    .id_exists = "SELECT 1 FROM beads WHERE id = ?1",

    .ack_reply = R"sql(
UPDATE deliveries SET ack_state = 'acked', acked_at = ?6
WHERE recipient = ?1 AND ack_state <> 'acked'
  AND message IN (SELECT seq FROM beads WHERE thread_id = ?2 AND sender = ?3 AND created_at <= ?4)
  AND (ack_state IN ('awaiting_ack', 'escalated') OR message = (SELECT seq FROM beads WHERE id = ?5))
RETURNING (SELECT b.id FROM beads AS b WHERE b.seq = deliveries.message) AS id)sql",

    .supersede = R"sql(
UPDATE deliveries SET archived_at = ?4, acted_by = ?1
WHERE recipient = ?3 AND )sql" MR_SQL_OPEN("") R"sql(
  AND message IN (SELECT seq FROM beads WHERE sender = ?1 AND dedup_key = ?2)
RETURNING (SELECT b.id FROM beads AS b WHERE b.seq = deliveries.message) AS id)sql",

    .mark_read = "\nUPDATE deliveries SET read_at = ?3, acted_by = ?4, " MR_SQL_REQUEST_READ("?3") R"sql(
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND read_at IS NULL)sql",

    .archive = R"sql(
UPDATE deliveries SET archived_at = ?3, acted_by = ?4
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND archived_at IS NULL)sql",

    .ack = R"sql(
UPDATE deliveries SET ack_state = 'acked', acked_at = ?3, acted_by = ?4
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND ack_state <> 'acked')sql",

    .take_release = R"sql(
UPDATE deliveries SET claim_token = NULL, claimed_by = NULL, claim_until = NULL
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND claim_token = ?3)sql",

    .delivery_of = R"sql(
SELECT b.seq AS seq, d.message IS NOT NULL AS has_delivery
FROM beads AS b LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?2
WHERE b.id = ?1)sql",

    .select_names = "SELECT name, retired_at IS NOT NULL AS retired FROM mailboxes ORDER BY name",

    .insert_mailbox = R"sql(
INSERT INTO mailboxes (name, registered_at) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING)sql",

    .reactivate_mailbox = "UPDATE mailboxes SET retired_at = NULL WHERE name = ?1 AND retired_at IS NOT NULL",

    .retire_mailbox = "UPDATE mailboxes SET retired_at = ?2 WHERE name = ?1 AND retired_at IS NULL",
};

// The shared statements of ViewQueries.
inline constexpr ViewQueries k_views = {
    .ids_with_prefix = "SELECT id FROM beads WHERE id >= ?1 AND id < ?2 ORDER BY id LIMIT 6",

    // ?1 limit, ?2 now -> trace_id, started_at, last_at, message_count, root_id, root_from,
    // subject, open_requests. A trace's root is its oldest message (by created_at, then seq); a
    // message of it is an open request while one of its deliveries is owed (MR_SQL_OWED). Newest
    // started first, ties by trace id.
    .recent_traces = R"sql(
SELECT t.trace_id AS trace_id, t.started_at AS started_at, t.last_at AS last_at,
       t.message_count AS message_count, r.id AS root_id, r.sender AS root_from, r.subject AS subject,
       (SELECT count(DISTINCT o.seq) FROM beads AS o JOIN deliveries AS d ON d.message = o.seq
        WHERE o.trace_id = t.trace_id AND )sql" MR_SQL_OWED("d.", "?2") R"sql()
         AS open_requests
FROM (SELECT trace_id, min(created_at) AS started_at, max(created_at) AS last_at, count(*) AS message_count
      FROM beads WHERE trace_id <> '' GROUP BY trace_id
      ORDER BY started_at DESC, trace_id LIMIT ?1) AS t
JOIN beads AS r ON r.seq = (SELECT f.seq FROM beads AS f WHERE f.trace_id = t.trace_id
                            ORDER BY f.created_at, f.seq LIMIT 1)
ORDER BY t.started_at DESC, t.trace_id)sql",
};

// The shared statements of TransferQueries.
inline constexpr TransferQueries k_transfer = {
    .mailbox_exists = "SELECT 1 FROM mailboxes WHERE name = ?1",

    .message_seq = "SELECT seq FROM beads WHERE id = ?1",

    .delivery = "SELECT " MR_SQL_DELIVERY_COLUMNS "FROM deliveries WHERE message = ?1 AND recipient = ?2",

    .set_acked_at = "UPDATE deliveries SET acked_at = ?3 WHERE message = ?1 AND recipient = ?2",

    .key =
        "SELECT " MR_SQL_KEY_COLUMNS "FROM idempotency_keys AS k LEFT JOIN beads AS b ON b.seq = k.message "
        "WHERE k.sender = ?1 AND k.key = ?2",

    .insert_key = R"sql(
INSERT INTO idempotency_keys (sender, key, fingerprint, message, created_at) VALUES (?1, ?2, ?3, ?4, ?5))sql",

    .release_keys = "UPDATE idempotency_keys SET message = NULL WHERE message = ?1",

    .delete_deliveries = "DELETE FROM deliveries WHERE message = ?1",

    .delete_message = "DELETE FROM beads WHERE seq = ?1",
};

// The event log (mail/events.hpp; docs/store.md "Events"). Only the lock differs: SQLite
// serialises writers already, PostgreSQL takes a transaction advisory lock before a transaction's
// first event so that seqs are allocated in commit order.
constexpr EventQueries event_queries(std::string_view lock)
{
  return EventQueries{
      .lock = lock,
      .insert = "INSERT INTO events (at, type, message_id, mailbox, actor) VALUES (?1, ?2, ?3, ?4, ?5)",
      .after =
          "SELECT seq, at, type, message_id, mailbox, actor FROM events WHERE seq > ?1 ORDER BY seq LIMIT ?2",
      .pruned = "SELECT through FROM events_pruned",
      .last = "SELECT max(seq) AS seq FROM events",
      .nth_newest = "SELECT seq FROM events ORDER BY seq DESC LIMIT 1 OFFSET ?1",
      .first_recent = "SELECT seq FROM events WHERE at >= ?1 ORDER BY seq LIMIT 1",
      .prune = "DELETE FROM events WHERE seq <= ?1",
      .set_pruned = "UPDATE events_pruned SET through = ?1 WHERE through < ?1",
  };
}

} // namespace mailroom::providers::sqlstore::shared_sql
