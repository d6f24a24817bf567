#pragma once

// The SQL both engines share: every statement whose text is the same for SQLite and
// PostgreSQL is written here once (plain SQL both read alike: no engine functions, sums of CASE
// rather than of booleans, parameters whose type the server can infer from the column they meet).
// Each engine's Queries starts from these parts and sets only the statements of its own dialect
// (providers/beads/sql*.cpp, providers/postgres/sql*.cpp); the store logic never reads them
// directly. A statement whose text differs between the engines only by a token (a cast, rowid or
// ordinal, the message columns) is written here once too, as a macro each engine expands with its
// tokens. queries.hpp documents every statement's parameters and columns. The mail rules spliced
// into the dialects' statements (unread, inbox order, message columns) are in sql_rules.hpp.

#include <string_view>

#include "sqlstore/message_sql.hpp"
#include "sqlstore/queries.hpp"
#include "sqlstore/sql_rules.hpp"

namespace mailroom::providers::sqlstore::shared_sql {

// The columns of TransferQueries::deliveries and ::delivery, and of ::keys and ::key.
#define MR_SQL_DELIVERY_COLUMNS                                                                              \
  "recipient, kind, delivered_at, read_at, archived_at, ack_state, acked_at, attempts, "                     \
  "last_attempt_at, acted_by, next_attempt_at, handler_attempts, retry_at, set_aside_at "
#define MR_SQL_KEY_COLUMNS                                                                                   \
  "k.sender AS sender, k.key AS key, k.fingerprint AS fingerprint, b.id AS message, "                        \
  "k.created_at AS created_at "

// The columns of HealthQueries::select_due.
#define MR_SQL_DUE_COLUMNS                                                                                   \
  "d.message AS message, b.id AS id, d.sender AS sender, d.recipient AS recipient, "                         \
  "b.subject AS subject, b.thread_id AS thread_id, d.created_at AS created_at, "                             \
  "d.attempts AS attempts "

// Statements whose text differs between the engines only by a token, as macros each engine's
// sql*.cpp expands with its own tokens:
// - `columns`: the engine's message columns (sql_rules.hpp's MR_SQL_MESSAGE_COLUMNS with its cut
//   of the body);
// - `P(n, type)`: the bound parameter ?n where PostgreSQL cannot infer its type from where it
//   stands: SQLite writes it bare (MR_PARAM), PostgreSQL with a cast (MR_PG_PARAM);
// - `position`: the column that keeps deliveries in stored order (SQLite's rowid, PostgreSQL's
//   ordinal).

// HealthQueries::select_peers' first table: the names on the other side of ?1's peer_pairs rows,
// in both directions (?3: only that one).
#define MR_SQL_PEER_NAMES(P)                                                                                 \
  "\nWITH names (peer) AS ("                                                                                 \
  "\n  SELECT recipient FROM peer_pairs"                                                                     \
  "\n  WHERE sender = ?1 AND recipient <> ?1 AND (" P(                                                       \
      "?3", "text") " IS NULL OR recipient = ?3)"                                                            \
                    "\n  UNION"                                                                              \
                    "\n  SELECT sender FROM peer_pairs"                                                      \
                    "\n  WHERE recipient = ?1 AND sender <> ?1 AND (" P("?3",                                \
                                                                        "text") " IS NULL OR sender = ?3)"   \
                                                                                "\n)"

// The messages whose `key` column is ?1 as viewer ?2 sees them (message rows, ?3 body_bytes).
#define MR_SQL_MESSAGES_WHERE(columns, key)                                                                  \
  "SELECT " columns "\nFROM beads AS b LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?2"  \
  "\nWHERE b." key " = ?1"

// A thread's or a trace's messages (`key` thread_id or trace_id), oldest first.
#define MR_SQL_CONVERSATION(columns, key) MR_SQL_MESSAGES_WHERE(columns, key) "\nORDER BY b.created_at, b.seq"

// ViewQueries::select_status: every delivery of message ?1, in stored order.
#define MR_SQL_SELECT_STATUS(position)                                                                       \
  "\nSELECT recipient, kind, delivered_at, read_at, archived_at, ack_state, acked_at, attempts,"             \
  "\n       last_attempt_at, acted_by, handler_attempts, claimed_by, claim_until, set_aside_at"              \
  "\nFROM deliveries WHERE message = ?1 ORDER BY " position

// ViewQueries::trace_deliveries: every delivery of trace ?1's messages, oldest message first.
#define MR_SQL_TRACE_DELIVERIES(position)                                                                    \
  "\nSELECT b.id AS id, d.recipient AS recipient, d.kind AS kind, d.delivered_at AS delivered_at,"           \
  "\n       d.read_at AS read_at, d.archived_at AS archived_at, d.ack_state AS ack_state,"                   \
  "\n       d.acked_at AS acked_at, d.attempts AS attempts, d.last_attempt_at AS last_attempt_at,"           \
  "\n       d.acted_by AS acted_by, d.handler_attempts AS handler_attempts, d.claimed_by AS claimed_by,"     \
  "\n       d.claim_until AS claim_until, d.set_aside_at AS set_aside_at, b.expires_at AS expires_at"        \
  "\nFROM beads AS b JOIN deliveries AS d ON d.message = b.seq"                                              \
  "\nWHERE b.trace_id = ?1"                                                                                  \
  "\nORDER BY b.created_at, b.seq, d." position

// CoreQueries::unmark_read.
#define MR_SQL_UNMARK_READ(P)                                                                                \
  "\nUPDATE deliveries SET read_at = NULL"                                                                   \
  "\nWHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND read_at = " P("?3",        \
                                                                                                "bigint")

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
                        expires_at, ack_state, next_attempt_at)
VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6, ?7, ?8, ?9))sql",

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

    .archive = R"sql(
UPDATE deliveries SET archived_at = ?3, acted_by = ?4
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND archived_at IS NULL)sql",

    .ack = R"sql(
UPDATE deliveries SET ack_state = 'acked', acked_at = ?3, acted_by = ?4
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND ack_state <> 'acked')sql",

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
    // message of it is an open request while one of its deliveries is owed (awaiting ack and
    // unexpired, or escalated). Newest started first, ties by trace id.
    .recent_traces = R"sql(
SELECT t.trace_id AS trace_id, t.started_at AS started_at, t.last_at AS last_at,
       t.message_count AS message_count, r.id AS root_id, r.sender AS root_from, r.subject AS subject,
       (SELECT count(DISTINCT o.seq) FROM beads AS o JOIN deliveries AS d ON d.message = o.seq
        WHERE o.trace_id = t.trace_id
          AND (d.ack_state = 'escalated'
               OR (d.ack_state = 'awaiting_ack' AND (d.expires_at IS NULL OR d.expires_at > ?2))))
         AS open_requests
FROM (SELECT trace_id, min(created_at) AS started_at, max(created_at) AS last_at, count(*) AS message_count
      FROM beads WHERE trace_id <> '' GROUP BY trace_id
      ORDER BY started_at DESC, trace_id LIMIT ?1) AS t
JOIN beads AS r ON r.seq = (SELECT f.seq FROM beads AS f WHERE f.trace_id = t.trace_id
                            ORDER BY f.created_at, f.seq LIMIT 1)
ORDER BY t.started_at DESC, t.trace_id)sql",
};

// The deliveries of ?1 a watcher may claim at ?2, filtered by ?3 sender and ?4 types
// ('\n'-joined; `has_type` is the engine's test that b.type is one of them), `from` joining the
// delivery `d` to its message `b`. The WHERE terms repeat the partial index deliveries_claimable's.
#define MR_SQL_CLAIMABLE(P, from, has_type)                                                                  \
  "FROM " from " WHERE d.recipient = ?1 AND " MR_SQL_UNREAD(                                                 \
      "d.",                                                                                                  \
      P("?2", "bigint")) " AND d.set_aside_at IS NULL AND (" P("?3",                                         \
                                                               "text") " IS NULL OR d.sender = ?3) "         \
                                                                       "AND (" P(                            \
                                                                           "?4",                             \
                                                                           "text") " = '' OR " has_type ") "

// ClaimQueries::select_claimable and ::next_claimable, `claimable` MR_SQL_CLAIMABLE's clause;
// `greatest` is the engine's name of the two-argument maximum.
#define MR_SQL_SELECT_CLAIMABLE(P, claimable)                                                                \
  "SELECT d.message AS seq, b.id AS id, d.handler_attempts AS handler_attempts " claimable                   \
  "\n  AND (d.claim_until IS NULL OR d.claim_until <= " P(                                                   \
      "?2", "bigint") ")"                                                                                    \
                      "\n  AND (d.retry_at IS NULL OR d.retry_at <= " P(                                     \
                          "?2", "bigint") ")\n" MR_SQL_INBOX_ORDER "LIMIT 1"
#define MR_SQL_NEXT_CLAIMABLE(P, greatest, claimable)                                                        \
  "SELECT min(" greatest "(coalesce(d.claim_until, 0), coalesce(d.retry_at, 0))) AS next_at " claimable      \
  "\n  AND (d.claim_until > " P("?2", "bigint") " OR d.retry_at > " P("?2", "bigint") ")"

// ClaimQueries::take, ::finish_done, ::finish_failed and ::set_aside.
#define MR_SQL_CLAIM_TAKE(P)                                                                                 \
  "\nUPDATE deliveries"                                                                                      \
  "\nSET claim_token = ?3, claimed_by = ?4, claim_until = ?5, handler_attempts = handler_attempts + 1"       \
  "\nWHERE message = ?1 AND recipient = ?2 AND (claim_until IS NULL OR claim_until <= " P("?6",              \
                                                                                          "bigint") ")"
#define MR_SQL_CLAIM_FINISH_DONE(P)                                                                          \
  "\nUPDATE deliveries"                                                                                      \
  "\nSET read_at = coalesce(read_at, " P(                                                                    \
      "?4", "bigint") "),"                                                                                   \
                      "\n    acked_at = CASE WHEN ack_state = 'acked' THEN acked_at ELSE " P(                \
                          "?4", "bigint") " END,"                                                            \
                                          "\n    ack_state = 'acked',"                                       \
                                          "\n    claim_token = NULL, claimed_by = NULL, claim_until = "      \
                                          "NULL, retry_at = NULL"                                            \
                                          "\nWHERE message = (SELECT seq FROM beads WHERE id = ?1) AND "     \
                                          "recipient = ?2 AND claim_token = ?3"                              \
                                          "\nRETURNING handler_attempts"
#define MR_SQL_CLAIM_FINISH_FAILED(P)                                                                        \
  "\nUPDATE deliveries"                                                                                      \
  "\nSET claim_token = NULL, claimed_by = NULL, claim_until = NULL, retry_at = " P(                          \
      "?4", "bigint") "\nWHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND "      \
                      "claim_token = ?3"                                                                     \
                      "\nRETURNING message AS seq, handler_attempts"
#define MR_SQL_CLAIM_SET_ASIDE(P)                                                                            \
  "\nUPDATE deliveries"                                                                                      \
  "\nSET set_aside_at = " P(                                                                                 \
      "?3", "bigint") ", claim_token = NULL, claimed_by = NULL, claim_until = NULL, retry_at = NULL"         \
                      "\nWHERE message = ?1 AND recipient = ?2"

// ClaimQueries, whole, as designated initializers: `claimable` is MR_SQL_CLAIMABLE's clause,
// `greatest` the engine's name of the two-argument maximum, `lock` what select_claimable appends
// to lock the row it returns.
#define MR_SQL_CLAIMS(P, greatest, claimable, lock)                                                          \
  .select_claimable = MR_SQL_SELECT_CLAIMABLE(P, claimable) lock,                                            \
  .next_claimable = MR_SQL_NEXT_CLAIMABLE(P, greatest, claimable), .take = MR_SQL_CLAIM_TAKE(P),             \
  .renew =                                                                                                   \
      "\nUPDATE deliveries SET claim_until = ?4"                                                             \
      "\nWHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND claim_token = ?3",     \
  .finish_done = MR_SQL_CLAIM_FINISH_DONE(P), .finish_failed = MR_SQL_CLAIM_FINISH_FAILED(P),                \
  .set_aside = MR_SQL_CLAIM_SET_ASIDE(P),                                                                    \
  .finish_released =                                                                                         \
      "\nUPDATE deliveries"                                                                                  \
      "\nSET claim_token = NULL, claimed_by = NULL, claim_until = NULL,"                                     \
      "\n    handler_attempts = CASE WHEN handler_attempts > 0 THEN handler_attempts - 1 ELSE 0 END"         \
      "\nWHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND claim_token = ?3"      \
      "\nRETURNING handler_attempts"

// ListQueries' statements. Beyond `P` and `columns` they take the engine's tokens:
// - `U(n, type)`: the clause a parameter the statement does not read needs (PostgreSQL types every
//   parameter up to the highest; SQLite needs nothing: MR_UNUSED is empty, MR_PG_UNUSED_TERM is a
//   term that is always true);
// - `L(n)`: LIMIT ?n where -1 means none (MR_LIMIT, MR_PG_LIMIT);
// - `has_type`: the test that b.type is one of ?7's ('\n'-framed) types;
// - `open_from`, `archived_from`: the mailbox's deliveries `d` joined to their messages `b`, through
//   the inbox's index of open or of archived deliveries; `sent_from`: the messages `b`, through the
//   index of their sender.

// The filters every list shares; `b` is the message.
#define MR_SQL_LIST_FILTERS(P, has_type)                                                                     \
  "AND (" P(                                                                                                 \
      "?5",                                                                                                  \
      "text") " IS NULL OR b.sender = ?5) "                                                                  \
              "AND (" P(                                                                                     \
                  "?6",                                                                                      \
                  "text") " IS NULL OR EXISTS (SELECT 1 FROM deliveries AS r WHERE r.message = b.seq "       \
                          "AND r.recipient = ?6)) "                                                          \
                          "AND (" P(                                                                         \
                              "?7",                                                                          \
                              "text") " IS NULL OR " has_type ") "                                           \
                                      "AND (" P(                                                             \
                                          "?8",                                                              \
                                          "integer") " IS NULL OR b.priority = ?8) "                         \
                                                     "AND (" P(                                              \
                                                         "?9",                                               \
                                                         "bigint") " IS NULL OR b.created_at >= ?9) "        \
                                                                   "AND (" P(                                \
                                                                       "?10",                                \
                                                                       "bigint") " IS NULL OR b.created_at " \
                                                                                 "< ?10) "                   \
                                                                                 "AND (" P(                  \
                                                                                     "?13",                  \
                                                                                     "text") " IS NULL OR "  \
                                                                                             "b.thread_id "  \
                                                                                             "= ?13) "

// ?2 now, ?3 body_bytes and ?4 limit, for the statements that do not read them.
#define MR_SQL_LIST_UNUSED(U) U("?2", "bigint") U("?3", "integer") U("?4", "bigint")

#define MR_SQL_INBOX_OPEN(P, U, has_type, open_from)                                                         \
  "FROM " open_from " WHERE d.recipient = ?1 AND d.archived_at IS NULL "                                     \
  "AND (" P("?11", "integer") " = 0 OR (" MR_SQL_UNREAD("d.", P("?2", "bigint")) ")) " U("?12", "integer")   \
      MR_SQL_LIST_UNUSED(U) MR_SQL_LIST_FILTERS(P, has_type)

#define MR_SQL_INBOX_ARCHIVED(P, U, has_type, archived_from)                                                 \
  "FROM " archived_from " WHERE d.recipient = ?1 AND d.archived_at IS NOT NULL AND (" P(                     \
      "?11", "integer") " = 0 OR d.read_at IS NULL) " U("?12", "integer") MR_SQL_LIST_UNUSED(U)              \
      MR_SQL_LIST_FILTERS(P, has_type)

#define MR_SQL_SENT(P, U, has_type, sent_from)                                                               \
  "FROM " sent_from " LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?1 "                  \
  "WHERE b.sender = ?1 "                                                                                     \
  "AND (" P(                                                                                                 \
      "?11",                                                                                                 \
      "integer") " = 0 OR EXISTS (SELECT 1 FROM deliveries AS u WHERE u.message = b.seq "                    \
                 "AND " MR_SQL_UNREAD(                                                                       \
                     "u.",                                                                                   \
                     P("?2",                                                                                 \
                       "bigint")) ")) "                                                                      \
                                  "AND (" P(                                                                 \
                                      "?12",                                                                 \
                                      "integer") " = 0 OR EXISTS (SELECT 1 FROM deliveries AS u WHERE "      \
                                                 "u.message = b.seq "                                        \
                                                 "AND u.archived_at IS NOT NULL)) " MR_SQL_LIST_UNUSED(U)    \
                                                     MR_SQL_LIST_FILTERS(P, has_type)

// The search filters after the engine's match of ?14 (ListQueries::search_hits).
#define MR_SQL_SEARCH_FILTERS(P, U, has_type)                                                                \
  "AND (" P("?1", "text") " IS NULL OR b.sender = ?1 OR d.message IS NOT NULL) "                             \
                          "AND (" P("?11", "integer") " = 0 OR (d.message IS NOT NULL AND " MR_SQL_UNREAD(   \
                              "d.",                                                                          \
                              P("?2", "bigint")) ")) AND (" P("?12",                                         \
                                                              "integer") " = 0 OR d.archived_at IS NOT "     \
                                                                         "NULL) " MR_SQL_LIST_UNUSED(U)      \
                                                                             MR_SQL_LIST_FILTERS(P,          \
                                                                                                 has_type)

// ListQueries' lists, from .inbox to .sent_count, as designated initializers.
#define MR_SQL_LISTS(columns, P, U, L, has_type, open_from, archived_from, sent_from)                        \
  .inbox = "SELECT " columns MR_SQL_INBOX_OPEN(P, U, has_type, open_from)                                    \
  MR_SQL_INBOX_ORDER L("?4"),                                                                                \
      .inbox_count = "SELECT count(*) AS total " MR_SQL_INBOX_OPEN(P, U, has_type, open_from),               \
      .inbox_archived = "SELECT " columns MR_SQL_INBOX_ARCHIVED(P, U, has_type, archived_from)               \
  MR_SQL_INBOX_ORDER L("?4"),                                                                                \
      .inbox_archived_count =                                                                                \
          "SELECT count(*) AS total " MR_SQL_INBOX_ARCHIVED(P, U, has_type, archived_from),                  \
      .sent = "SELECT " columns MR_SQL_SENT(P, U, has_type,                                                  \
                                            sent_from) "ORDER BY b.created_at DESC, b.seq DESC " L("?4"),    \
      .sent_count = "SELECT count(*) AS total " MR_SQL_SENT(P, U, has_type, sent_from)

// TransferQueries::message_seqs, ::deliveries, ::keys and ::purgeable.
#define MR_SQL_MESSAGE_SEQS(P)                                                                               \
  "SELECT seq FROM beads WHERE " P("?1", "bigint") " IS NULL OR created_at >= ?1 ORDER BY created_at, seq"
#define MR_SQL_EXPORT_DELIVERIES(position)                                                                   \
  "SELECT " MR_SQL_DELIVERY_COLUMNS "FROM deliveries WHERE message = ?1 ORDER BY " position
#define MR_SQL_EXPORT_KEYS(P)                                                                                \
  "SELECT " MR_SQL_KEY_COLUMNS "FROM idempotency_keys AS k LEFT JOIN beads AS b ON b.seq = k.message "       \
  "WHERE " P("?1", "bigint") " IS NULL OR k.created_at >= ?1 ORDER BY k.sender, k.key"
// A message with no delivery at all is never "all archived".
#define MR_SQL_PURGEABLE(P)                                                                                  \
  "\nSELECT b.seq AS seq, (SELECT count(*) FROM deliveries AS c WHERE c.message = b.seq) AS deliveries"      \
  "\nFROM beads AS b"                                                                                        \
  "\nWHERE (b.expires_at IS NOT NULL AND b.expires_at <= " P(                                                \
      "?1", "bigint") ")"                                                                                    \
                      "\n   OR (EXISTS (SELECT 1 FROM deliveries AS a WHERE a.message = b.seq)"              \
                      "\n       AND NOT EXISTS (SELECT 1 FROM deliveries AS o"                               \
                      "\n                       WHERE o.message = b.seq AND (o.archived_at IS NULL OR "      \
                      "o.archived_at > " P("?1", "bigint") ")))"                                             \
                                                           "\nORDER BY b.seq"

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
