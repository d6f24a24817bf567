#pragma once

// The statements whose text differs between the engines only by a token, written once as macros
// that each engine's sql*.cpp expands with its own tokens (string literals joined at compile
// time, as sql_rules.hpp's). What is the same to the byte is in shared_sql.hpp; what really
// differs stays in the engine's sql*.cpp. Include only from the engines' sql*.cpp files.
//
// The tokens:
// - `columns`: the engine's message columns (sql_rules.hpp's MR_SQL_MESSAGE_COLUMNS with its cut
//   of the body);
// - `P(n, type)`: the bound parameter ?n where PostgreSQL cannot infer its type from where it
//   stands: SQLite writes it bare (MR_PARAM), PostgreSQL with a cast (MR_PG_PARAM);
// - `position`: the column that keeps deliveries in stored order (SQLite's rowid, PostgreSQL's
//   ordinal);
// - the lists' further tokens are named above MR_SQL_LISTS.

#include "sqlstore/shared_sql.hpp"
#include "sqlstore/sql_rules.hpp"

// Each macro is laid out as the SQL it writes, one SQL line a source line.
// clang-format off

// HealthQueries::select_peers' first table: the names on the other side of ?1's peer_pairs rows,
// in both directions (?3: only that one). MR_SQL_PAIRED_WITH is one direction: the `other` column
// of the rows whose `mine` column is ?1.
#define MR_SQL_PAIRED_WITH(P, mine, other)                                                                   \
  "\n  SELECT " other " FROM peer_pairs"                                                                     \
  "\n  WHERE " mine " = ?1 AND " other " <> ?1 AND (" P("?3", "text") " IS NULL OR " other " = ?3)"
#define MR_SQL_PEER_NAMES(P)                                                                                 \
  "\nWITH names (peer) AS (" MR_SQL_PAIRED_WITH(P, "sender", "recipient") "\n  UNION"                         \
  MR_SQL_PAIRED_WITH(P, "recipient", "sender") "\n)"

// The messages whose `key` column is ?1 as viewer ?2 sees them (message rows, ?3 body_bytes).
#define MR_SQL_MESSAGES_WHERE(columns, key)                                                                  \
  "SELECT " columns                                                                                          \
  "\nFROM beads AS b LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?2"                    \
  "\nWHERE b." key " = ?1"

// CoreQueries::live_copy, `now` the engine's ?4 (sql_rules.hpp): the newest message of sender
// ?1's stream ?2 of which ?3 holds a live delivery (beads_dedup, then the deliveries' key).
#define MR_SQL_LIVE_COPY(now)                                                                                \
  "\nSELECT b.id AS id FROM beads AS b JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?3"       \
  "\nWHERE b.sender = ?1 AND b.dedup_key = ?2 AND " MR_SQL_LIVE("d.", now)                                  \
  "\nORDER BY b.seq DESC LIMIT 1"

// A thread's or a trace's messages (`key` thread_id or trace_id), oldest first.
#define MR_SQL_CONVERSATION(columns, key)                                                                    \
  MR_SQL_MESSAGES_WHERE(columns, key)                                                                        \
  "\nORDER BY b.created_at, b.seq"

// ViewQueries::open_deliveries: every delivery that is not archived (?2 = 1: read ones too) of a
// message from ?1 (NULL: anyone), oldest first, each as its recipient sees it (?3 body_bytes).
#define MR_SQL_OPEN_DELIVERIES(columns, P)                                                                  \
  "SELECT d.recipient AS recipient, " columns                                                                \
  "\nFROM deliveries AS d JOIN beads AS b ON b.seq = d.message"                                             \
  "\nWHERE d.archived_at IS NULL AND (" P("?2", "integer") " = 1 OR d.read_at IS NULL)"                     \
  "\n  AND (" P("?1", "text") " IS NULL OR b.sender = ?1)"                                                  \
  "\nORDER BY d.created_at, d.message, d.recipient"

// ViewQueries::select_status: every delivery of message ?1, in stored order: the claim, then the
// stored fields (mail/delivery_fields.hpp).
#define MR_SQL_SELECT_STATUS(position)                                                                       \
  "\nSELECT claimed_by, claim_until" MR_SQL_DELIVERY_FIELDS                                                 \
  "\nFROM deliveries WHERE message = ?1 ORDER BY " position

// ViewQueries::trace_deliveries: every delivery of trace ?1's messages, oldest message first: the
// message's id, the claim, then the stored fields.
#define MR_SQL_TRACE_DELIVERIES(position)                                                                    \
  "\nSELECT b.id AS id, d.claimed_by AS claimed_by, d.claim_until AS claim_until" MR_SQL_DELIVERY_FIELDS_OF_D \
  "\nFROM beads AS b JOIN deliveries AS d ON d.message = b.seq"                                              \
  "\nWHERE b.trace_id = ?1"                                                                                  \
  "\nORDER BY b.created_at, b.seq, d." position

// CoreQueries::take_hold: an unread delivery that no lease holds is held for a take.
#define MR_SQL_TAKE_HOLD(P)                                                                                  \
  "\nUPDATE deliveries SET claim_token = ?3, claimed_by = ?4, claim_until = " P("?5", "bigint")              \
  "\nWHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND read_at IS NULL"          \
  "\n  AND (claim_until IS NULL OR claim_until <= " P("?6", "bigint") ")"

// CoreQueries::take_mark: the held delivery, still unread, is marked read and let go.
#define MR_SQL_TAKE_MARK(P)                                                                                  \
  "\nUPDATE deliveries SET read_at = " P("?4", "bigint") ", acted_by = ?5,"                                  \
  "\n    claim_token = NULL, claimed_by = NULL, claim_until = NULL"                                          \
  "\nWHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND claim_token = ?3"         \
  "\n  AND read_at IS NULL"

// The deliveries of ?1 a watcher may claim at ?2, filtered by ?3 sender and ?4 types
// ('\n'-joined; `has_type` is the engine's test that b.type is one of them), `from` joining the
// delivery `d` to its message `b`. The WHERE terms repeat the partial index deliveries_claimable's.
#define MR_SQL_CLAIMABLE(P, from, has_type)                                                                  \
  "FROM " from " "                                                                                           \
  "WHERE d.recipient = ?1 AND " MR_SQL_UNREAD("d.", P("?2", "bigint")) " AND d.set_aside_at IS NULL "        \
  "AND " MR_SQL_REQUEST_AT_WORK("d.") " "                                                                     \
  "AND (" P("?3", "text") " IS NULL OR d.sender = ?3) "                                                      \
  "AND (" P("?4", "text") " = '' OR " has_type ") "

// ClaimQueries, whole, as designated initializers: `claimable` is MR_SQL_CLAIMABLE's clause,
// `greatest` the engine's name of the two-argument maximum, `lock` what select_claimable appends
// to lock the row it returns.
#define MR_SQL_CLAIMS(P, greatest, claimable, lock)                                                          \
  .select_claimable =                                                                                        \
      "SELECT d.message AS seq, b.id AS id, d.handler_attempts AS handler_attempts " claimable               \
      "\n  AND (d.claim_until IS NULL OR d.claim_until <= " P("?2", "bigint") ")"                            \
      "\n  AND (d.retry_at IS NULL OR d.retry_at <= " P("?2", "bigint") ")"                                  \
      "\n" MR_SQL_INBOX_ORDER "LIMIT 1" lock,                                                                \
  .next_claimable =                                                                                          \
      "SELECT min(" greatest "(coalesce(d.claim_until, 0), coalesce(d.retry_at, 0))) AS next_at " claimable  \
      "\n  AND (d.claim_until > " P("?2", "bigint") " OR d.retry_at > " P("?2", "bigint") ")",               \
  .take =                                                                                                    \
      "\nUPDATE deliveries"                                                                                  \
      "\nSET claim_token = ?3, claimed_by = ?4, claim_until = ?5, handler_attempts = handler_attempts + 1,"  \
      "\n    " MR_SQL_REQUEST_READ(P("?6", "bigint"))                                                        \
      "\nWHERE message = ?1 AND recipient = ?2 AND (claim_until IS NULL OR claim_until <= " P("?6", "bigint") ")", \
  .renew =                                                                                                   \
      "\nUPDATE deliveries SET claim_until = ?4"                                                             \
      "\nWHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND claim_token = ?3",     \
  .finish_done =                                                                                             \
      "\nUPDATE deliveries"                                                                                  \
      "\nSET read_at = coalesce(read_at, " P("?4", "bigint") "),"                                            \
      "\n    acked_at = CASE WHEN ack_state = 'acked' THEN acked_at ELSE " P("?4", "bigint") " END,"         \
      "\n    ack_state = 'acked', " MR_SQL_REQUEST_READ(P("?4", "bigint")) ","                               \
      "\n    claim_token = NULL, claimed_by = NULL, claim_until = NULL, retry_at = NULL"                     \
      "\nWHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND claim_token = ?3"      \
      "\nRETURNING handler_attempts",                                                                        \
  .finish_failed =                                                                                           \
      "\nUPDATE deliveries"                                                                                  \
      "\nSET claim_token = NULL, claimed_by = NULL, claim_until = NULL, retry_at = " P("?4", "bigint")       \
      "\nWHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND claim_token = ?3"      \
      "\nRETURNING message AS seq, handler_attempts",                                                        \
  .set_aside =                                                                                               \
      "\nUPDATE deliveries"                                                                                  \
      "\nSET set_aside_at = " P("?3", "bigint") ", claim_token = NULL, claimed_by = NULL, claim_until = NULL, retry_at = NULL," \
      "\n    " MR_SQL_REQUEST_SET_ASIDE(P("?3", "bigint"))                                                   \
      "\nWHERE message = ?1 AND recipient = ?2",                                                             \
  .finish_released =                                                                                         \
      "\nUPDATE deliveries"                                                                                  \
      "\nSET claim_token = NULL, claimed_by = NULL, claim_until = NULL,"                                     \
      "\n    handler_attempts = CASE WHEN handler_attempts > 0 THEN handler_attempts - 1 ELSE 0 END"         \
      "\nWHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND claim_token = ?3"      \
      "\nRETURNING handler_attempts"

// RequestQueries, whole, as designated initializers.
#define MR_SQL_REQUESTS(P)                                                                                   \
  .answer =                                                                                                  \
      "\nUPDATE deliveries SET request_state = ?3, request_state_at = " P("?4", "bigint")                    \
      "\nWHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2"                           \
      "\n  AND request_state IN " MR_SQL_REQUEST_OPEN_STATES,                                                \
  .resume =                                                                                                  \
      "\nUPDATE deliveries"                                                                                  \
      "\nSET request_state = 'working', request_state_at = " P("?3", "bigint") ", read_at = NULL,"           \
      "\n    expires_at = expires_at + (" P("?3", "bigint") " - coalesce(request_state_at, " P("?3", "bigint") "))" \
      "\nWHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2"                           \
      "\n  AND request_state = 'input_required'",                                                            \
  .cancel =                                                                                                  \
      "\nUPDATE deliveries SET request_state = 'canceled', request_state_at = " P("?3", "bigint") ","        \
      "\n    expires_at = CASE WHEN expires_at IS NULL OR expires_at > " P("?3", "bigint")                  \
      " THEN " P("?3", "bigint") " ELSE expires_at END"                                                      \
      "\nWHERE message = ?1 AND recipient = ?2 AND " MR_SQL_REQUEST_OPEN("", P("?3", "bigint"))

// ListQueries' statements. Beyond `P` and `columns` they take the engine's tokens:
// - `U(n, type)`: the term a parameter the statement does not read needs (PostgreSQL types every
//   parameter up to the highest; SQLite needs nothing: MR_UNUSED is empty, MR_PG_UNUSED_TERM is a
//   term that is always true);
// - `L(n)`: LIMIT ?n where -1 means none (MR_LIMIT, MR_PG_LIMIT);
// - `has_type`: the test that b.type is one of ?7's ('\n'-framed) types;
// - `open_from`, `archived_from`: the mailbox's deliveries `d` joined to their messages `b`, through
//   the inbox's index of open or of archived deliveries; `sent_from`: the messages `b`, through the
//   index of their sender.

// The filters every list shares; `b` is the message.
#define MR_SQL_LIST_FILTERS(P, has_type)                                                                     \
  "AND (" P("?5", "text") " IS NULL OR b.sender = ?5) "                                                      \
  "AND (" P("?6", "text") " IS NULL OR EXISTS (SELECT 1 FROM deliveries AS r WHERE r.message = b.seq "       \
  "AND r.recipient = ?6)) "                                                                                  \
  "AND (" P("?7", "text") " IS NULL OR " has_type ") "                                                       \
  "AND (" P("?8", "integer") " IS NULL OR b.priority = ?8) "                                                 \
  "AND (" P("?9", "bigint") " IS NULL OR b.created_at >= ?9) "                                               \
  "AND (" P("?10", "bigint") " IS NULL OR b.created_at < ?10) "                                              \
  "AND (" P("?13", "text") " IS NULL OR b.thread_id = ?13) "

// ?2 now, ?3 body_bytes and ?4 limit, for the statements that do not read them.
#define MR_SQL_LIST_UNUSED(U) U("?2", "bigint") U("?3", "integer") U("?4", "bigint")

#define MR_SQL_INBOX_OPEN(P, U, has_type, open_from)                                                         \
  "FROM " open_from " "                                                                                      \
  "WHERE d.recipient = ?1 AND d.archived_at IS NULL "                                                        \
  "AND (" P("?11", "integer") " = 0 OR (" MR_SQL_UNREAD("d.", P("?2", "bigint")) ")) "                       \
  U("?12", "integer") MR_SQL_LIST_UNUSED(U) MR_SQL_LIST_FILTERS(P, has_type)

#define MR_SQL_INBOX_ARCHIVED(P, U, has_type, archived_from)                                                 \
  "FROM " archived_from " "                                                                                  \
  "WHERE d.recipient = ?1 AND d.archived_at IS NOT NULL AND (" P("?11", "integer") " = 0 OR d.read_at IS NULL) " \
  U("?12", "integer") MR_SQL_LIST_UNUSED(U) MR_SQL_LIST_FILTERS(P, has_type)

#define MR_SQL_SENT(P, U, has_type, sent_from)                                                               \
  "FROM " sent_from " "                                                                                      \
  "LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?1 "                                     \
  "WHERE b.sender = ?1 "                                                                                     \
  "AND (" P("?11", "integer") " = 0 OR EXISTS (SELECT 1 FROM deliveries AS u WHERE u.message = b.seq "       \
  "AND " MR_SQL_UNREAD("u.", P("?2", "bigint")) ")) "                                                        \
  "AND (" P("?12", "integer") " = 0 OR EXISTS (SELECT 1 FROM deliveries AS u WHERE u.message = b.seq "       \
  "AND u.archived_at IS NOT NULL)) "                                                                         \
  MR_SQL_LIST_UNUSED(U) MR_SQL_LIST_FILTERS(P, has_type)

// The search filters after the engine's match of ?14 (ListQueries::search_hits).
#define MR_SQL_SEARCH_FILTERS(P, U, has_type)                                                                \
  "AND (" P("?1", "text") " IS NULL OR b.sender = ?1 OR d.message IS NOT NULL) "                             \
  "AND (" P("?11", "integer") " = 0 OR (d.message IS NOT NULL AND " MR_SQL_UNREAD("d.", P("?2", "bigint")) ")) " \
  "AND (" P("?12", "integer") " = 0 OR d.archived_at IS NOT NULL) "                                          \
  MR_SQL_LIST_UNUSED(U) MR_SQL_LIST_FILTERS(P, has_type)

// ListQueries' lists, from .inbox to .sent_count, as designated initializers.
#define MR_SQL_LISTS(columns, P, U, L, has_type, open_from, archived_from, sent_from)                        \
  .inbox = "SELECT " columns MR_SQL_INBOX_OPEN(P, U, has_type, open_from) MR_SQL_INBOX_ORDER L("?4"),       \
  .inbox_count = "SELECT count(*) AS total " MR_SQL_INBOX_OPEN(P, U, has_type, open_from),                  \
  .inbox_archived =                                                                                          \
      "SELECT " columns MR_SQL_INBOX_ARCHIVED(P, U, has_type, archived_from) MR_SQL_INBOX_ORDER L("?4"),    \
  .inbox_archived_count = "SELECT count(*) AS total " MR_SQL_INBOX_ARCHIVED(P, U, has_type, archived_from), \
  .sent = "SELECT " columns MR_SQL_SENT(P, U, has_type, sent_from)                                          \
          "ORDER BY b.created_at DESC, b.seq DESC " L("?4"),                                                 \
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
  "\nWHERE (b.expires_at IS NOT NULL AND b.expires_at <= " P("?1", "bigint") ")"                             \
  "\n   OR (EXISTS (SELECT 1 FROM deliveries AS a WHERE a.message = b.seq)"                                  \
  "\n       AND NOT EXISTS (SELECT 1 FROM deliveries AS o"                                                   \
  "\n                       WHERE o.message = b.seq AND (o.archived_at IS NULL OR o.archived_at > " P("?1", "bigint") ")))" \
  "\nORDER BY b.seq"

// clang-format on
