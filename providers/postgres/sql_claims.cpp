// The PostgreSQL store's SQL for watch claims. Several watchers may share a mailbox from several
// hosts: select_claimable locks the row it returns (FOR UPDATE OF d SKIP LOCKED), so two watchers
// never take the same delivery and neither waits for the other's transaction; take then re-checks
// the lease under that lock.

#include "postgres/sql.hpp"
#include "postgres/sql_columns.hpp"
#include "sqlstore/shared_sql.hpp"

namespace mailroom::providers::postgres {

namespace {

// The claimable deliveries of ?1 at ?2, filtered by ?3 sender and ?4 types ('\n'-joined), in the
// partial index deliveries_claimable (its WHERE terms are repeated so the planner may use it).
#define MR_PG_CLAIMABLE                                                                                      \
  "FROM deliveries AS d JOIN beads AS b ON b.seq = d.message "                                               \
  "WHERE d.recipient = ?1 AND " MR_PG_UNREAD(                                                                \
      "d",                                                                                                   \
      "?2") " AND d.set_aside_at IS NULL "                                                                   \
            "AND (?3::text IS NULL OR d.sender = ?3) "                                                       \
            "AND (?4::text = '' OR strpos(chr(10) || ?4 || chr(10), chr(10) || b.type || chr(10)) > 0) "

constexpr sqlstore::ClaimQueries k_claims = [] {
  sqlstore::ClaimQueries q = sqlstore::shared_sql::k_claims;

  q.select_claimable =
      "SELECT d.message AS seq, b.id AS id, d.handler_attempts AS handler_attempts " MR_PG_CLAIMABLE
      R"sql(
  AND (d.claim_until IS NULL OR d.claim_until <= ?2::bigint)
  AND (d.retry_at IS NULL OR d.retry_at <= ?2::bigint)
)sql" MR_SQL_INBOX_ORDER R"sql(LIMIT 1
FOR UPDATE OF d SKIP LOCKED)sql";

  q.next_claimable =
      "SELECT min(greatest(coalesce(d.claim_until, 0), coalesce(d.retry_at, 0))) AS next_at " MR_PG_CLAIMABLE
      R"sql(
  AND (d.claim_until > ?2::bigint OR d.retry_at > ?2::bigint))sql";

  q.take = R"sql(
UPDATE deliveries
SET claim_token = ?3, claimed_by = ?4, claim_until = ?5, handler_attempts = handler_attempts + 1
WHERE message = ?1 AND recipient = ?2 AND (claim_until IS NULL OR claim_until <= ?6::bigint))sql";

  q.finish_done = R"sql(
UPDATE deliveries
SET read_at = coalesce(read_at, ?4::bigint),
    acked_at = CASE WHEN ack_state = 'acked' THEN acked_at ELSE ?4::bigint END,
    ack_state = 'acked',
    claim_token = NULL, claimed_by = NULL, claim_until = NULL, retry_at = NULL
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND claim_token = ?3
RETURNING handler_attempts)sql";

  q.finish_failed = R"sql(
UPDATE deliveries
SET claim_token = NULL, claimed_by = NULL, claim_until = NULL, retry_at = ?4::bigint
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND claim_token = ?3
RETURNING message AS seq, handler_attempts)sql";

  q.set_aside = R"sql(
UPDATE deliveries
SET set_aside_at = ?3::bigint, claim_token = NULL, claimed_by = NULL, claim_until = NULL, retry_at = NULL
WHERE message = ?1 AND recipient = ?2)sql";
  return q;
}();

#undef MR_PG_CLAIMABLE

} // namespace

const sqlstore::ClaimQueries& postgres_claim_queries()
{
  return k_claims;
}

} // namespace mailroom::providers::postgres
