// The PostgreSQL store's SQL for delivery health and the redelivery sweep. Unlike the bead store,
// peer_pairs here holds only who wrote to whom (inserted once, never updated, so concurrent sends
// share no row; schema.cpp): the last send, ack and inbound times are read per pair from the
// indexes deliveries_pair_sent and deliveries_pair_acked. Sweep passes on several hosts split the
// due deliveries between them: each claims its rows with FOR UPDATE OF d SKIP LOCKED.

#include "postgres/sql.hpp"
#include "postgres/sql_columns.hpp"
#include "sqlstore/dialect_sql.hpp"
#include "sqlstore/sql_rules.hpp"

namespace mailroom::providers::postgres {

namespace {

constexpr sqlstore::HealthQueries k_health = {
    .select_peers = MR_SQL_PEER_NAMES(MR_PG_PARAM) R"sql(,
pending (peer, pending_count, oldest_pending_at) AS (
  SELECT recipient, count(*), min(created_at) FROM deliveries
  WHERE sender = ?1 AND ack_state = 'awaiting_ack' AND (?3::text IS NULL OR recipient = ?3)
    AND (expires_at IS NULL OR expires_at > ?2::bigint)
  GROUP BY recipient
),
escalated (peer, escalated_count) AS (
  SELECT recipient, count(*) FROM deliveries
  WHERE sender = ?1 AND ack_state = 'escalated' AND (?3::text IS NULL OR recipient = ?3)
  GROUP BY recipient
)
SELECT n.peer AS peer,
       (SELECT max(s.created_at) FROM deliveries AS s WHERE s.sender = ?1 AND s.recipient = n.peer)
         AS last_sent_at,
       (SELECT max(a.acked_at) FROM deliveries AS a
        WHERE a.sender = ?1 AND a.recipient = n.peer AND a.acked_at IS NOT NULL) AS last_acked_at,
       (SELECT max(i.created_at) FROM deliveries AS i WHERE i.sender = n.peer AND i.recipient = ?1)
         AS last_inbound_at,
       m.last_seen AS last_seen_at,
       coalesce(p.pending_count, 0) AS pending_count, p.oldest_pending_at AS oldest_pending_at,
       coalesce(e.escalated_count, 0) AS escalated_count,
       (CASE WHEN EXISTS (SELECT 1 FROM peer_pairs AS w
                          JOIN deliveries AS q ON q.sender = w.sender AND q.recipient = w.recipient
                          WHERE w.recipient = n.peer AND )sql" MR_SQL_OWED("q.", "?2::bigint") R"sql(
                            AND (q.ack_state = 'escalated' OR q.created_at < ?4::bigint))
             THEN 1 ELSE 0 END)::bigint AS peer_owes_overdue
FROM names AS n
LEFT JOIN mailbox_presence AS m ON m.name = n.peer
LEFT JOIN pending AS p ON p.peer = n.peer
LEFT JOIN escalated AS e ON e.peer = n.peer
ORDER BY n.peer)sql",

    // peers --all: peer_pairs holds only who wrote to whom; the times and counts are read per
    // pair from deliveries_pair_sent, deliveries_pair_acked and the partial indexes.
    .select_pairs = R"sql(
SELECT pp.sender AS sender, pp.recipient AS recipient,
       (SELECT max(s.created_at) FROM deliveries AS s WHERE s.sender = pp.sender AND s.recipient = pp.recipient)
         AS last_sent_at,
       (SELECT max(a.acked_at) FROM deliveries AS a
        WHERE a.sender = pp.sender AND a.recipient = pp.recipient AND a.acked_at IS NOT NULL) AS last_acked_at,
       (SELECT count(*) FROM deliveries AS p
        WHERE p.sender = pp.sender AND p.recipient = pp.recipient AND p.ack_state = 'awaiting_ack'
          AND (p.expires_at IS NULL OR p.expires_at > ?1::bigint)) AS pending_count,
       (SELECT min(p.created_at) FROM deliveries AS p
        WHERE p.sender = pp.sender AND p.recipient = pp.recipient AND p.ack_state = 'awaiting_ack'
          AND (p.expires_at IS NULL OR p.expires_at > ?1::bigint)) AS oldest_pending_at,
       (SELECT count(*) FROM deliveries AS e
        WHERE e.sender = pp.sender AND e.recipient = pp.recipient AND e.ack_state = 'escalated') AS escalated_count,
       (SELECT count(*) FROM deliveries AS x
        WHERE x.sender = pp.sender AND x.recipient = pp.recipient AND x.ack_state = 'awaiting_ack'
          AND x.expires_at IS NOT NULL AND x.expires_at <= ?1::bigint) AS expired_count
FROM peer_pairs AS pp WHERE pp.sender <> pp.recipient)sql",

    .select_due = "SELECT " MR_SQL_DUE_COLUMNS R"sql(
FROM deliveries AS d JOIN beads AS b ON b.seq = d.message
WHERE d.ack_state = 'awaiting_ack' AND d.next_attempt_at <= ?1::bigint
  AND (d.expires_at IS NULL OR d.expires_at > ?1::bigint)
  AND )sql" MR_SQL_REQUEST_AT_WORK("d.") R"sql(
  AND (?2::text IS NULL OR d.sender = ?2)
  AND (d.last_attempt_at IS NULL OR d.last_attempt_at < ?3::bigint)
  AND d.attempts < ?4::integer
ORDER BY d.next_attempt_at, d.message, d.recipient
)sql" MR_PG_LIMIT("?5") R"sql(
FOR UPDATE OF d SKIP LOCKED)sql",

    .select_due_pairs = R"sql(
SELECT DISTINCT sender, recipient FROM deliveries
WHERE ack_state = 'awaiting_ack' AND next_attempt_at <= ?1::bigint
  AND (expires_at IS NULL OR expires_at > ?1::bigint)
  AND )sql" MR_SQL_REQUEST_AT_WORK("") R"sql(
  AND (?2::text IS NULL OR sender = ?2)
  AND (last_attempt_at IS NULL OR last_attempt_at < ?3::bigint)
  AND attempts >= ?4::integer
ORDER BY sender, recipient)sql",

    .select_due_of_pair = "SELECT " MR_SQL_DUE_COLUMNS R"sql(
FROM deliveries AS d JOIN beads AS b ON b.seq = d.message
WHERE d.sender = ?2 AND d.recipient = ?3 AND d.ack_state = 'awaiting_ack' AND d.next_attempt_at <= ?1::bigint
  AND (d.expires_at IS NULL OR d.expires_at > ?1::bigint)
  AND )sql" MR_SQL_REQUEST_AT_WORK("d.") R"sql(
  AND (d.last_attempt_at IS NULL OR d.last_attempt_at < ?4::bigint)
  AND d.attempts >= ?5::integer
ORDER BY d.created_at, d.message
FOR UPDATE OF d SKIP LOCKED)sql",

    .redeliver = R"sql(
UPDATE deliveries
SET read_at = NULL, archived_at = NULL, attempts = attempts + 1, last_attempt_at = ?3, next_attempt_at = ?4
WHERE message = ?1 AND recipient = ?2 AND ack_state = 'awaiting_ack' AND attempts = ?5::integer)sql",

    .escalate = R"sql(
UPDATE deliveries SET ack_state = 'escalated'
WHERE message = ?1 AND recipient = ?2 AND ack_state = 'awaiting_ack' AND attempts = ?3::integer)sql",

    .team_mailboxes = R"sql(
SELECT m.name AS name, m.retired_at AS retired_at, p.last_seen AS last_seen, p.seen_via AS seen_via
FROM mailboxes AS m LEFT JOIN mailbox_presence AS p ON p.name = m.name
UNION ALL
SELECT ?1::text COLLATE "C", NULL::bigint, p.last_seen, p.seen_via
FROM (VALUES (1)) AS one (x) LEFT JOIN mailbox_presence AS p ON p.name = ?1::text
WHERE NOT EXISTS (SELECT 1 FROM mailboxes WHERE name = ?1::text)
  AND (p.name IS NOT NULL OR EXISTS (SELECT 1 FROM deliveries WHERE recipient = ?1::text)
       OR EXISTS (SELECT 1 FROM beads WHERE sender = ?1::text)))sql",

    .team_received = R"sql(
SELECT recipient,
       count(*) FILTER (WHERE )sql" MR_SQL_UNREAD("", "?1::bigint") R"sql() AS unread,
       count(*) FILTER (WHERE )sql" MR_SQL_OWED("", "?1::bigint") R"sql() AS owed_count,
       count(*) FILTER (WHERE )sql" MR_SQL_OWED("", "?1::bigint") R"sql(
           AND (ack_state = 'escalated' OR created_at < ?2::bigint)) AS overdue_count,
       count(*) FILTER (WHERE set_aside_at IS NOT NULL AND )sql" MR_SQL_OPEN("") R"sql()
         AS set_aside_count
FROM deliveries GROUP BY recipient)sql",

    .team_sent = R"sql(
SELECT sender, count(*) AS awaiting_others_count FROM deliveries
WHERE recipient <> sender AND )sql" MR_SQL_OWED("", "?1::bigint") R"sql(
GROUP BY sender)sql",

    .team_claims = R"sql(
SELECT d.recipient AS recipient, b.id AS id, b.subject AS subject, d.claimed_by AS claimed_by,
  d.claim_until AS claim_until
FROM deliveries AS d JOIN beads AS b ON b.seq = d.message
WHERE d.claim_until > ?1::bigint AND d.claimed_by IS NOT NULL
ORDER BY d.recipient, d.claim_until, b.id)sql",

};

} // namespace

const sqlstore::HealthQueries& postgres_health_queries()
{
  return k_health;
}

} // namespace mailroom::providers::postgres
