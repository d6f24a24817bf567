#pragma once

// The bead store's SQL: every statement the SQL store logic runs, in SQLite's dialect.

#include "sqlstore/queries.hpp"

namespace mailroom::providers::beads {

// The SQLite text of every query (sql.cpp and the per-feature sql_*.cpp files).
const sqlstore::Queries& sqlite_queries();

// The SQLite text of the watch claims (sql_claims.cpp).
sqlstore::ClaimQueries sqlite_claim_queries();
// Delivery health and the sweep (sql_health.cpp).
sqlstore::HealthQueries sqlite_health_queries();
// Filtered lists, sent and search (sql_lists.cpp).
const sqlstore::ListQueries& sqlite_list_queries();
// Export, import and purge (sql_transfer.cpp).
const sqlstore::TransferQueries& sqlite_transfer_queries();

} // namespace mailroom::providers::beads
