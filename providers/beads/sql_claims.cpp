// The bead store's SQL for watch claims (SQLite). Every statement runs inside SqlStore's write
// transaction (BEGIN IMMEDIATE), which is what makes select-then-take safe here; PostgreSQL's text
// adds FOR UPDATE OF d SKIP LOCKED to select_claimable instead. Whether a delivery's attempts are
// spent is decided by SqlStore (mail::attempts_spent), which then runs set_aside.

#include "beads/sql.hpp"
#include "sqlstore/shared_sql.hpp"
#include "sqlstore/sql_rules.hpp"

namespace mailroom::providers::beads {

namespace {

// The claimable deliveries of ?1 at ?2, filtered by ?3 sender and ?4 types ('\n'-joined), in the
// partial index deliveries_claimable (its WHERE terms are repeated so the planner may use it).
#define MR_CLAIMABLE                                                                                         \
  "FROM deliveries AS d INDEXED BY deliveries_claimable CROSS JOIN beads AS b ON b.seq = d.message "         \
  "WHERE d.recipient = ?1 AND " MR_SQL_UNREAD(                                                               \
      "d.", "?2") " AND d.set_aside_at IS NULL "                                                             \
                  "AND (?3 IS NULL OR d.sender = ?3) "                                                       \
                  "AND (?4 = '' OR instr(char(10) || ?4 || char(10), char(10) || b.type || char(10)) > 0) "

constexpr sqlstore::ClaimQueries k_claims = [] {
  sqlstore::ClaimQueries q = sqlstore::shared_sql::k_claims;

  q.select_claimable =
      "SELECT d.message AS seq, b.id AS id, d.handler_attempts AS handler_attempts " MR_CLAIMABLE
      R"sql(
  AND (d.claim_until IS NULL OR d.claim_until <= ?2)
  AND (d.retry_at IS NULL OR d.retry_at <= ?2)
)sql" MR_SQL_INBOX_ORDER "LIMIT 1";

  q.next_claimable =
      "SELECT min(max(coalesce(d.claim_until, 0), coalesce(d.retry_at, 0))) AS next_at " MR_CLAIMABLE
      R"sql(
  AND (d.claim_until > ?2 OR d.retry_at > ?2))sql";

  q.take = R"sql(
UPDATE deliveries
SET claim_token = ?3, claimed_by = ?4, claim_until = ?5, handler_attempts = handler_attempts + 1
WHERE message = ?1 AND recipient = ?2 AND (claim_until IS NULL OR claim_until <= ?6))sql";

  q.finish_done = R"sql(
UPDATE deliveries
SET read_at = coalesce(read_at, ?4),
    acked_at = CASE WHEN ack_state = 'acked' THEN acked_at ELSE ?4 END,
    ack_state = 'acked',
    claim_token = NULL, claimed_by = NULL, claim_until = NULL, retry_at = NULL
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND claim_token = ?3
RETURNING handler_attempts)sql";

  q.finish_failed = R"sql(
UPDATE deliveries
SET claim_token = NULL, claimed_by = NULL, claim_until = NULL, retry_at = ?4
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND claim_token = ?3
RETURNING message AS seq, handler_attempts)sql";

  q.set_aside = R"sql(
UPDATE deliveries
SET set_aside_at = ?3, claim_token = NULL, claimed_by = NULL, claim_until = NULL, retry_at = NULL
WHERE message = ?1 AND recipient = ?2)sql";
  return q;
}();

#undef MR_CLAIMABLE

} // namespace

sqlstore::ClaimQueries sqlite_claim_queries()
{
  return k_claims;
}

} // namespace mailroom::providers::beads
