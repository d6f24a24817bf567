// The bead store's SQL for watch claims (SQLite). Every statement runs inside SqlStore's write
// transaction (BEGIN IMMEDIATE), which is what makes select-then-take safe here; PostgreSQL's text
// adds FOR UPDATE OF d SKIP LOCKED to select_claimable instead. Whether a delivery's attempts are
// spent is decided by SqlStore (mail::attempts_spent), which then runs set_aside.

#include "beads/sql.hpp"
#include "beads/sql_columns.hpp"
#include "sqlstore/dialect_sql.hpp"
#include "sqlstore/sql_rules.hpp"

namespace mailroom::providers::beads {

namespace {

// The claimable deliveries (sqlstore/shared_sql.hpp), read through deliveries_claimable.
#define MR_CLAIMABLE                                                                                         \
  MR_SQL_CLAIMABLE(                                                                                          \
      MR_PARAM,                                                                                              \
      "deliveries AS d INDEXED BY deliveries_claimable CROSS JOIN beads AS b ON b.seq = d.message",          \
      "instr(char(10) || ?4 || char(10), char(10) || b.type || char(10)) > 0")

constexpr sqlstore::ClaimQueries k_claims = {MR_SQL_CLAIMS(MR_PARAM, "max", MR_CLAIMABLE, "")};

#undef MR_CLAIMABLE

} // namespace

sqlstore::ClaimQueries sqlite_claim_queries()
{
  return k_claims;
}

} // namespace mailroom::providers::beads
