// The PostgreSQL store's SQL for watch claims. Several watchers may share a mailbox from several
// hosts: select_claimable locks the row it returns (FOR UPDATE OF d SKIP LOCKED), so two watchers
// never take the same delivery and neither waits for the other's transaction; take then re-checks
// the lease under that lock.

#include "postgres/sql.hpp"
#include "postgres/sql_columns.hpp"
#include "sqlstore/dialect_sql.hpp"

namespace mailroom::providers::postgres {

namespace {

// The claimable deliveries (sqlstore/shared_sql.hpp).
#define MR_PG_CLAIMABLE                                                                                      \
  MR_SQL_CLAIMABLE(MR_PG_PARAM, "deliveries AS d JOIN beads AS b ON b.seq = d.message",                      \
                   "strpos(chr(10) || ?4 || chr(10), chr(10) || b.type || chr(10)) > 0")

constexpr sqlstore::ClaimQueries k_claims = {
    MR_SQL_CLAIMS(MR_PG_PARAM, "greatest", MR_PG_CLAIMABLE, "\nFOR UPDATE OF d SKIP LOCKED")};

#undef MR_PG_CLAIMABLE

} // namespace

const sqlstore::ClaimQueries& postgres_claim_queries()
{
  return k_claims;
}

} // namespace mailroom::providers::postgres
