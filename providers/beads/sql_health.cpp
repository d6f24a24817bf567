// The bead store's SQL for delivery health and the redelivery sweep (SQLite). peers reads the
// trigger-kept peer_pairs and the partial indexes of pending and escalated deliveries, never the
// caller's history; the sweep finds due deliveries through deliveries_due. sql_plan_test.cpp pins
// the plans.

#include "beads/sql.hpp"

namespace mailroom::providers::beads {

namespace {

// The due-delivery columns of queries.hpp (HealthQueries::select_due).
#define MR_DUE_COLUMNS                                                                             \
  "d.message AS message, b.id AS id, d.sender AS sender, d.recipient AS recipient, "               \
  "b.subject AS subject, b.thread_id AS thread_id, d.created_at AS created_at, "                   \
  "d.attempts AS attempts "

constexpr sqlstore::HealthQueries k_health = {
    // Peers are the mailboxes on the other side of my peer_pairs rows, in both directions (the
    // inbound side through peer_pairs_inbound, not forced: a v2 store made before that index still
    // answers, by a scan of the pairs). My pending and escalated deliveries are read once
    // each, grouped by recipient, from their partial indexes; pending ones are checked for expiry.
    .select_peers = R"sql(
WITH names (peer) AS (
  SELECT recipient FROM peer_pairs
  WHERE sender = ?1 AND recipient <> ?1 AND (?3 IS NULL OR recipient = ?3)
  UNION
  SELECT sender FROM peer_pairs
  WHERE recipient = ?1 AND sender <> ?1 AND (?3 IS NULL OR sender = ?3)
),
pending (peer, pending_count, oldest_pending_at) AS (
  SELECT recipient, count(*), min(created_at) FROM deliveries INDEXED BY deliveries_pending
  WHERE sender = ?1 AND ack_state = 'awaiting_ack' AND (?3 IS NULL OR recipient = ?3)
    AND (expires_at IS NULL OR expires_at > ?2)
  GROUP BY recipient
),
escalated (peer, escalated_count) AS (
  SELECT recipient, count(*) FROM deliveries INDEXED BY deliveries_escalated
  WHERE sender = ?1 AND ack_state = 'escalated' AND (?3 IS NULL OR recipient = ?3)
  GROUP BY recipient
)
SELECT n.peer AS peer, o.last_sent_at AS last_sent_at, o.last_acked_at AS last_acked_at,
       i.last_sent_at AS last_inbound_at, m.last_seen AS last_seen_at,
       coalesce(p.pending_count, 0) AS pending_count, p.oldest_pending_at AS oldest_pending_at,
       coalesce(e.escalated_count, 0) AS escalated_count
FROM names AS n
LEFT JOIN peer_pairs AS o ON o.sender = ?1 AND o.recipient = n.peer
LEFT JOIN peer_pairs AS i ON i.sender = n.peer AND i.recipient = ?1
LEFT JOIN mailboxes AS m ON m.name = n.peer
LEFT JOIN pending AS p ON p.peer = n.peer
LEFT JOIN escalated AS e ON e.peer = n.peer
ORDER BY n.peer)sql",

    // SQLite serialises write transactions (BEGIN IMMEDIATE), so reading the due rows inside one
    // claims them; PostgreSQL's text adds FOR UPDATE OF d SKIP LOCKED.
    .select_due = "SELECT " MR_DUE_COLUMNS R"sql(
FROM deliveries AS d INDEXED BY deliveries_due CROSS JOIN beads AS b ON b.seq = d.message
WHERE d.ack_state = 'awaiting_ack' AND d.next_attempt_at <= ?1
  AND (d.expires_at IS NULL OR d.expires_at > ?1)
  AND (?2 IS NULL OR d.sender = ?2)
  AND (d.last_attempt_at IS NULL OR d.last_attempt_at < ?3)
  AND d.attempts < ?4
ORDER BY d.next_attempt_at, d.message, d.recipient
LIMIT ?5)sql",

    .select_due_pairs = R"sql(
SELECT DISTINCT sender, recipient FROM deliveries INDEXED BY deliveries_due
WHERE ack_state = 'awaiting_ack' AND next_attempt_at <= ?1
  AND (expires_at IS NULL OR expires_at > ?1)
  AND (?2 IS NULL OR sender = ?2)
  AND (last_attempt_at IS NULL OR last_attempt_at < ?3)
  AND attempts >= ?4
ORDER BY sender, recipient)sql",

    .select_due_of_pair = "SELECT " MR_DUE_COLUMNS R"sql(
FROM deliveries AS d INDEXED BY deliveries_pending CROSS JOIN beads AS b ON b.seq = d.message
WHERE d.sender = ?2 AND d.recipient = ?3 AND d.ack_state = 'awaiting_ack' AND d.next_attempt_at <= ?1
  AND (d.expires_at IS NULL OR d.expires_at > ?1)
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
};

#undef MR_DUE_COLUMNS

} // namespace

sqlstore::HealthQueries sqlite_health_queries()
{
  return k_health;
}

} // namespace mailroom::providers::beads
