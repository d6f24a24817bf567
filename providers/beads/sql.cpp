// The bead store's SQL (SQLite). Parameters are always bound, never formatted in. Hot paths
// (inbox, check, count) are index-only or read the trigger-kept counters; sql_plan_test.cpp pins
// their plans.

#include "beads/sql.hpp"

#include "beads/sql_columns.hpp"
#include "mail/limits.hpp"
#include "sqlstore/event_sql.hpp"
#include "sqlstore/shared_sql.hpp"
#include "sqlstore/sql_rules.hpp"

namespace mailroom::providers::beads {

static_assert(std::string_view(MR_PREVIEW_BYTES) == "4096" && mail::k_preview_bytes == 4096,
              "MR_PREVIEW_BYTES must spell mail::k_preview_bytes");

namespace {

constexpr sqlstore::CoreQueries k_core = {
    .select_message = "SELECT " MR_MESSAGE_COLUMNS R"sql(
FROM beads AS b LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?2
WHERE b.id = ?1)sql",

    .select_unread = "SELECT " MR_MESSAGE_COLUMNS R"sql(
FROM deliveries AS d INDEXED BY deliveries_unread CROSS JOIN beads AS b ON b.seq = d.message
WHERE d.recipient = ?1 AND )sql" MR_SQL_UNREAD("d.", "?2") "\n" MR_SQL_INBOX_ORDER "LIMIT ?4",

    .select_open = "SELECT " MR_MESSAGE_COLUMNS R"sql(
FROM deliveries AS d INDEXED BY deliveries_open CROSS JOIN beads AS b ON b.seq = d.message
WHERE d.recipient = ?1 AND d.archived_at IS NULL
)sql" MR_SQL_INBOX_ORDER "LIMIT ?4",

    // The counters, less the unread deliveries that have expired (few, and index-served).
    .count = R"sql(
SELECT coalesce(c.total, 0) AS total, coalesce(c.unread, 0) - (
  SELECT count(*) FROM deliveries INDEXED BY deliveries_expiring
  WHERE recipient = ?1 AND )sql" MR_SQL_UNREAD_BUT_EXPIRED("", "?2") R"sql() AS unread
FROM (SELECT 1) LEFT JOIN mailbox_counts AS c ON c.recipient = ?1)sql",

    .count_unread = R"sql(
SELECT coalesce(c.unread, 0) - (
  SELECT count(*) FROM deliveries INDEXED BY deliveries_expiring
  WHERE recipient = ?1 AND )sql" MR_SQL_UNREAD_BUT_EXPIRED("", "?2") R"sql() AS unread
FROM (SELECT 1) LEFT JOIN mailbox_counts AS c ON c.recipient = ?1)sql",

    .select_awaiting = "SELECT " MR_MESSAGE_COLUMNS R"sql(
FROM deliveries AS d INDEXED BY deliveries_awaiting CROSS JOIN beads AS b ON b.seq = d.message
WHERE d.recipient = ?1 AND d.ack_state IN ('awaiting_ack', 'escalated')
  AND )sql" MR_SQL_UNREAD("d.", "?2") R"sql(
ORDER BY d.created_at, d.message
LIMIT ?4)sql",

    .count_classes = R"sql(
SELECT (SELECT count(*) FROM deliveries INDEXED BY deliveries_awaiting
        WHERE recipient = ?1 AND ack_state IN ('awaiting_ack', 'escalated')
          AND )sql" MR_SQL_UNREAD("", "?2") R"sql() AS awaiting,
       (SELECT count(*) FROM deliveries INDEXED BY deliveries_unread
        WHERE recipient = ?1 AND priority = 0 AND )sql" MR_SQL_UNREAD("", "?2") R"sql(
          AND ack_state NOT IN ('awaiting_ack', 'escalated')) AS urgent)sql",

    .resolve_thread = R"sql(
SELECT thread_id FROM beads WHERE id = ?1
UNION ALL
SELECT thread_id FROM (SELECT thread_id FROM beads WHERE thread_id = ?1 LIMIT 1))sql",

    .select_thread = "SELECT " MR_MESSAGE_COLUMNS R"sql(
FROM beads AS b LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?2
WHERE b.thread_id = ?1
ORDER BY b.created_at, b.seq)sql",

    .select_unread_ids = R"sql(
SELECT b.id AS id
FROM deliveries AS d INDEXED BY deliveries_unread CROSS JOIN beads AS b ON b.seq = d.message
WHERE d.recipient = ?1 AND )sql" MR_SQL_UNREAD("d.", "?2") "\n" MR_SQL_INBOX_ORDER,

    .select_key = R"sql(
SELECT k.fingerprint AS fingerprint, b.id AS id
FROM idempotency_keys AS k LEFT JOIN beads AS b ON b.seq = k.message
WHERE k.sender = ?1 AND k.key = ?2)sql",

    .insert_key = R"sql(
INSERT INTO idempotency_keys (sender, key, fingerprint, message, created_at) VALUES (?1, ?2, ?3, ?4, ?5))sql",

    .insert_message = R"sql(
INSERT INTO beads (id, sender, to_list, cc_list, addressed_to, subject, body, created_at, thread_id,
                   reply_to, priority, type, trace_id, span_id, parent_span_id, expires_at,
                   sender_uid, sender_host, body_bytes, preview)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)
RETURNING seq)sql",

    .insert_delivery = R"sql(
INSERT INTO deliveries (message, recipient, kind, priority, created_at, delivered_at, sender,
                        expires_at, ack_state, next_attempt_at)
VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6, ?7, ?8, ?9))sql",

    .mark_visible = R"sql(
INSERT INTO visibility (who, word, bits) VALUES (?1, ?2 >> 6, 1 << (?2 & 63))
ON CONFLICT (who, word) DO UPDATE SET bits = bits | excluded.bits)sql",

    .id_exists = "SELECT 1 FROM beads WHERE id = ?1",

    .ack_reply = R"sql(
UPDATE deliveries SET ack_state = 'acked', acked_at = ?6
WHERE recipient = ?1 AND ack_state <> 'acked'
  AND message IN (SELECT seq FROM beads WHERE thread_id = ?2 AND sender = ?3 AND created_at <= ?4)
  AND (ack_state IN ('awaiting_ack', 'escalated') OR message = (SELECT seq FROM beads WHERE id = ?5))
RETURNING (SELECT b.id FROM beads AS b WHERE b.seq = deliveries.message) AS id)sql",

    .mark_read = R"sql(
UPDATE deliveries SET read_at = ?3, acted_by = ?4
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND read_at IS NULL)sql",

    .mark_unread = R"sql(
UPDATE deliveries SET read_at = NULL, set_aside_at = NULL, handler_attempts = 0, retry_at = NULL,
                      acted_by = ?4
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2
  AND (read_at IS NOT NULL OR set_aside_at IS NOT NULL))sql",

    .archive = R"sql(
UPDATE deliveries SET archived_at = ?3, acted_by = ?4
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND archived_at IS NULL)sql",

    .unarchive = R"sql(
UPDATE deliveries SET archived_at = NULL, acted_by = ?4
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND archived_at IS NOT NULL)sql",

    .ack = R"sql(
UPDATE deliveries SET ack_state = 'acked', acked_at = ?3, acted_by = ?4
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND ack_state <> 'acked')sql",

    .delivery_of = R"sql(
SELECT b.seq AS seq, d.message IS NOT NULL AS has_delivery
FROM beads AS b LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?2
WHERE b.id = ?1)sql",

    .unmark_read = R"sql(
UPDATE deliveries SET read_at = NULL
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND read_at = ?3)sql",

    .mark_all_read = R"sql(
UPDATE deliveries SET read_at = ?2
WHERE recipient = ?1 AND )sql" MR_SQL_UNREAD("", "?2"),

    .select_names = "SELECT name, retired_at IS NOT NULL AS retired FROM mailboxes ORDER BY name",

    .select_mailbox = "SELECT retired_at IS NOT NULL AS retired, last_seen FROM mailboxes WHERE name = ?1",

    .insert_mailbox = R"sql(
INSERT INTO mailboxes (name, registered_at) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING)sql",

    .reactivate_mailbox = "UPDATE mailboxes SET retired_at = NULL WHERE name = ?1 AND retired_at IS NOT NULL",

    .retire_mailbox = "UPDATE mailboxes SET retired_at = ?2 WHERE name = ?1 AND retired_at IS NULL",

    .touch_mailbox = R"sql(
UPDATE mailboxes SET last_seen = ?2, seen_via = ?4
WHERE name = ?1 AND (last_seen IS NULL OR last_seen <= ?2 - ?3))sql",

    .touch_unregistered = R"sql(
INSERT INTO unregistered_presence AS p (name, last_seen, seen_via) VALUES (?1, ?2, ?4)
ON CONFLICT (name) DO UPDATE SET last_seen = excluded.last_seen, seen_via = excluded.seen_via
WHERE p.last_seen <= excluded.last_seen - ?3)sql",

    .select_agents = R"sql(
SELECT m.name AS name, m.registered_at AS registered_at, m.last_seen AS last_seen,
       coalesce(c.unread, 0) - (
         SELECT count(*) FROM deliveries AS e INDEXED BY deliveries_expiring
         WHERE e.recipient = m.name AND )sql" MR_SQL_UNREAD_BUT_EXPIRED("e.", "?1") R"sql() AS unread
FROM mailboxes AS m LEFT JOIN mailbox_counts AS c ON c.recipient = m.name
WHERE m.retired_at IS NULL ORDER BY m.name)sql",
};

constexpr sqlstore::ViewQueries k_views = {
    .ids_with_prefix = "SELECT id FROM beads WHERE id >= ?1 AND id < ?2 ORDER BY id LIMIT 6",

    .select_status = R"sql(
SELECT recipient, kind, delivered_at, read_at, archived_at, ack_state, acked_at, attempts,
       last_attempt_at, acted_by, handler_attempts, claimed_by, claim_until, set_aside_at
FROM deliveries WHERE message = ?1 ORDER BY rowid)sql",

    .resolve_trace = R"sql(
SELECT trace_id FROM beads WHERE id = ?1
UNION ALL
SELECT trace_id FROM (SELECT trace_id FROM beads WHERE trace_id = ?1 LIMIT 1))sql",

    .select_trace = "SELECT " MR_MESSAGE_COLUMNS R"sql(
FROM beads AS b LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?2
WHERE b.trace_id = ?1
ORDER BY b.created_at, b.seq)sql",

    .trace_deliveries = R"sql(
SELECT b.id AS id, d.recipient AS recipient, d.kind AS kind, d.delivered_at AS delivered_at,
       d.read_at AS read_at, d.archived_at AS archived_at, d.ack_state AS ack_state,
       d.acked_at AS acked_at, d.attempts AS attempts, d.last_attempt_at AS last_attempt_at,
       d.acted_by AS acted_by, d.handler_attempts AS handler_attempts, d.claimed_by AS claimed_by,
       d.claim_until AS claim_until, d.set_aside_at AS set_aside_at, b.expires_at AS expires_at
FROM beads AS b JOIN deliveries AS d ON d.message = b.seq
WHERE b.trace_id = ?1
ORDER BY b.created_at, b.seq, d.rowid)sql",

    .recent_traces = sqlstore::shared_sql::k_recent_traces,
};

#undef MR_MESSAGE_COLUMNS

} // namespace

const sqlstore::Queries& sqlite_queries()
{
  // Built once from the constant parts (sql.cpp and the sql_*.cpp files); never changes.
  static const sqlstore::Queries k_queries = {k_core,
                                              k_views,
                                              sqlite_claim_queries(),
                                              sqlite_health_queries(),
                                              sqlite_list_queries(),
                                              sqlite_transfer_queries(),
                                              sqlstore::event_queries("")};
  return k_queries;
}

} // namespace mailroom::providers::beads
