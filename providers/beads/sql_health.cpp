// The bead store's SQL for delivery health and the redelivery sweep (SQLite). peers reads the
// trigger-kept peer_pairs and, per peer, the partial indexes of pending and escalated deliveries,
// never the caller's history; the sweep finds due deliveries through deliveries_due.
// sql_health_plan_test.cpp pins the plans.

#include "beads/sql.hpp"
#include "beads/sql_columns.hpp"
#include "sqlstore/dialect_sql.hpp"
#include "sqlstore/sql_rules.hpp"

namespace mailroom::providers::beads {

namespace {

constexpr sqlstore::HealthQueries k_health = {
    // Peers are the mailboxes on the other side of my peer_pairs rows, in both directions (the
    // inbound side through peer_pairs_inbound, not forced: a v2 store made before that index still
    // answers, by a scan of the pairs). Each peer's pending and escalated deliveries are counted by
    // a key search of their partial indexes (sender, recipient): joining a grouped result instead
    // compared every peer with every pending row (BENCHMARKS.md, "Measurements behind the code").
    // Pending ones are checked for expiry. Whether the peer owes anyone an overdue delivery is the
    // owed rule (MR_SQL_OWED) read as its two halves, each from its partial index, as team reads
    // it. No ORDER BY: mail::finish_peers sorts (stale first).
    .select_peers = MR_SQL_PEER_NAMES(MR_PARAM) R"sql(
SELECT n.peer AS peer, o.last_sent_at AS last_sent_at, o.last_acked_at AS last_acked_at,
       i.last_sent_at AS last_inbound_at, m.last_seen AS last_seen_at,
       (SELECT count(*) FROM deliveries AS p INDEXED BY deliveries_pending
        WHERE p.sender = ?1 AND p.recipient = n.peer AND p.ack_state = 'awaiting_ack'
          AND (p.expires_at IS NULL OR p.expires_at > ?2)) AS pending_count,
       (SELECT min(p.created_at) FROM deliveries AS p INDEXED BY deliveries_pending
        WHERE p.sender = ?1 AND p.recipient = n.peer AND p.ack_state = 'awaiting_ack'
          AND (p.expires_at IS NULL OR p.expires_at > ?2)) AS oldest_pending_at,
       (SELECT count(*) FROM deliveries AS e INDEXED BY deliveries_escalated
        WHERE e.sender = ?1 AND e.recipient = n.peer AND e.ack_state = 'escalated') AS escalated_count,
       (CASE WHEN EXISTS (SELECT 1 FROM peer_pairs AS w
                          JOIN deliveries AS q INDEXED BY deliveries_requests_open
                            ON q.sender = w.sender AND q.recipient = w.recipient
                          WHERE w.recipient = n.peer AND q.request_state IN ('submitted', 'working')
                            AND (q.ack_state = 'escalated' OR q.created_at < ?4)
                            AND (q.expires_at IS NULL OR q.expires_at > ?2))
               OR EXISTS (SELECT 1 FROM peer_pairs AS w
                          JOIN deliveries AS x INDEXED BY deliveries_owed_plain
                            ON x.sender = w.sender AND x.recipient = w.recipient
                          WHERE w.recipient = n.peer AND x.request_state IS NULL
                            AND x.ack_state IN ('awaiting_ack', 'escalated')
                            AND (x.ack_state = 'escalated'
                                 OR (x.created_at < ?4 AND (x.expires_at IS NULL OR x.expires_at > ?2))))
             THEN 1 ELSE 0 END) AS peer_owes_overdue
FROM names AS n
LEFT JOIN peer_pairs AS o ON o.sender = ?1 AND o.recipient = n.peer
LEFT JOIN peer_pairs AS i ON i.sender = n.peer AND i.recipient = ?1
LEFT JOIN mailboxes AS m ON m.name = n.peer)sql",

    // peers --all: every pair, its times from peer_pairs and its counts from a key search of the
    // partial indexes per pair, as for one mailbox's peers.
    .select_pairs = R"sql(
SELECT pp.sender AS sender, pp.recipient AS recipient, pp.last_sent_at AS last_sent_at,
       pp.last_acked_at AS last_acked_at,
       (SELECT count(*) FROM deliveries AS p INDEXED BY deliveries_pending
        WHERE p.sender = pp.sender AND p.recipient = pp.recipient AND p.ack_state = 'awaiting_ack'
          AND (p.expires_at IS NULL OR p.expires_at > ?1)) AS pending_count,
       (SELECT min(p.created_at) FROM deliveries AS p INDEXED BY deliveries_pending
        WHERE p.sender = pp.sender AND p.recipient = pp.recipient AND p.ack_state = 'awaiting_ack'
          AND (p.expires_at IS NULL OR p.expires_at > ?1)) AS oldest_pending_at,
       (SELECT count(*) FROM deliveries AS e INDEXED BY deliveries_escalated
        WHERE e.sender = pp.sender AND e.recipient = pp.recipient AND e.ack_state = 'escalated') AS escalated_count,
       (SELECT count(*) FROM deliveries AS x INDEXED BY deliveries_pending
        WHERE x.sender = pp.sender AND x.recipient = pp.recipient AND x.ack_state = 'awaiting_ack'
          AND x.expires_at IS NOT NULL AND x.expires_at <= ?1) AS expired_count
FROM peer_pairs AS pp WHERE pp.sender <> pp.recipient)sql",

    // SQLite serialises write transactions (BEGIN IMMEDIATE), so reading the due rows inside one
    // claims them; PostgreSQL's text adds FOR UPDATE OF d SKIP LOCKED.
    .select_due = "SELECT " MR_SQL_DUE_COLUMNS R"sql(
FROM deliveries AS d INDEXED BY deliveries_due CROSS JOIN beads AS b ON b.seq = d.message
WHERE d.ack_state = 'awaiting_ack' AND d.next_attempt_at <= ?1
  AND (d.expires_at IS NULL OR d.expires_at > ?1)
  AND )sql" MR_SQL_REQUEST_AT_WORK("d.") R"sql(
  AND (?2 IS NULL OR d.sender = ?2)
  AND (d.last_attempt_at IS NULL OR d.last_attempt_at < ?3)
  AND d.attempts < ?4
ORDER BY d.next_attempt_at, d.message, d.recipient
LIMIT ?5)sql",

    .select_due_pairs = R"sql(
SELECT DISTINCT sender, recipient FROM deliveries INDEXED BY deliveries_due
WHERE ack_state = 'awaiting_ack' AND next_attempt_at <= ?1
  AND (expires_at IS NULL OR expires_at > ?1)
  AND )sql" MR_SQL_REQUEST_AT_WORK("") R"sql(
  AND (?2 IS NULL OR sender = ?2)
  AND (last_attempt_at IS NULL OR last_attempt_at < ?3)
  AND attempts >= ?4
ORDER BY sender, recipient)sql",

    .select_due_of_pair = "SELECT " MR_SQL_DUE_COLUMNS R"sql(
FROM deliveries AS d INDEXED BY deliveries_pending CROSS JOIN beads AS b ON b.seq = d.message
WHERE d.sender = ?2 AND d.recipient = ?3 AND d.ack_state = 'awaiting_ack' AND d.next_attempt_at <= ?1
  AND (d.expires_at IS NULL OR d.expires_at > ?1)
  AND )sql" MR_SQL_REQUEST_AT_WORK("d.") R"sql(
  AND (d.last_attempt_at IS NULL OR d.last_attempt_at < ?4)
  AND d.attempts >= ?5
ORDER BY d.created_at, d.message)sql",

    .redeliver = R"sql(
UPDATE deliveries
SET read_at = NULL, archived_at = NULL, attempts = attempts + 1, last_attempt_at = ?3, next_attempt_at = ?4
WHERE message = ?1 AND recipient = ?2 AND ack_state = 'awaiting_ack' AND attempts = ?5)sql",

    .escalate = R"sql(
UPDATE deliveries SET ack_state = 'escalated'
WHERE message = ?1 AND recipient = ?2 AND ack_state = 'awaiting_ack' AND attempts = ?3)sql",

    .team_mailboxes = R"sql(
SELECT name, retired_at, last_seen, seen_via FROM mailboxes
UNION ALL
SELECT ?1, NULL, p.last_seen, p.seen_via
FROM (SELECT 1) LEFT JOIN unregistered_presence AS p ON p.name = ?1
WHERE NOT EXISTS (SELECT 1 FROM mailboxes WHERE name = ?1)
  AND (p.name IS NOT NULL OR EXISTS (SELECT 1 FROM deliveries WHERE recipient = ?1)
       OR EXISTS (SELECT 1 FROM beads WHERE sender = ?1)))sql",

    // Each count from the partial index that holds exactly its rows, so that `team` reads the
    // open and owed deliveries, never the whole history: set aside is open minus claimable
    // (deliveries_claimable is the open ones not set aside), and owed (MR_SQL_OWED) is read as its
    // two halves, the open requests and the tracked deliveries of no request, each from its index.
    .team_received = R"sql(
SELECT recipient, sum(unread) AS unread, sum(owed) AS owed_count, sum(overdue) AS overdue_count,
       sum(open_all) - sum(claimable) AS set_aside_count
FROM (
  SELECT recipient, sum()sql" MR_SQL_UNREAD("", "?1") R"sql() AS unread, count(*) AS open_all,
         0 AS claimable, 0 AS owed, 0 AS overdue
  FROM deliveries INDEXED BY deliveries_unread
  WHERE )sql" MR_SQL_OPEN("") R"sql( GROUP BY recipient
  UNION ALL
  SELECT recipient, 0, 0, count(*), 0, 0 FROM deliveries INDEXED BY deliveries_claimable
  WHERE )sql" MR_SQL_OPEN("") R"sql( AND set_aside_at IS NULL GROUP BY recipient
  UNION ALL
  SELECT recipient, 0, 0, 0, count(*), sum(ack_state = 'escalated' OR created_at < ?2)
  FROM deliveries INDEXED BY deliveries_requests_open
  WHERE request_state IN ('submitted', 'working') AND (expires_at IS NULL OR expires_at > ?1) GROUP BY recipient
  UNION ALL
  SELECT recipient, 0, 0, 0, count(*), sum(ack_state = 'escalated' OR created_at < ?2)
  FROM deliveries INDEXED BY deliveries_owed_plain
  WHERE request_state IS NULL AND ack_state IN ('awaiting_ack', 'escalated')
    AND (ack_state = 'escalated' OR expires_at IS NULL OR expires_at > ?1) GROUP BY recipient
) GROUP BY recipient)sql",

    .team_sent = R"sql(
SELECT sender, sum(n) AS awaiting_others_count
FROM (
  SELECT sender, count(*) AS n FROM deliveries INDEXED BY deliveries_requests_open
  WHERE request_state IN ('submitted', 'working') AND recipient <> sender
    AND (expires_at IS NULL OR expires_at > ?1) GROUP BY sender
  UNION ALL
  SELECT sender, count(*) FROM deliveries INDEXED BY deliveries_owed_plain
  WHERE request_state IS NULL AND ack_state IN ('awaiting_ack', 'escalated') AND recipient <> sender
    AND (ack_state = 'escalated' OR expires_at IS NULL OR expires_at > ?1) GROUP BY sender
) GROUP BY sender)sql",

    .team_claims = R"sql(
SELECT d.recipient AS recipient, b.id AS id, b.subject AS subject, d.claimed_by AS claimed_by,
  d.claim_until AS claim_until
FROM deliveries AS d CROSS JOIN beads AS b ON b.seq = d.message
WHERE d.claim_until > ?1 AND d.claimed_by IS NOT NULL
ORDER BY d.recipient, d.claim_until, b.id)sql",

};

} // namespace

sqlstore::HealthQueries sqlite_health_queries()
{
  return k_health;
}

} // namespace mailroom::providers::beads
