#pragma once

// The PostgreSQL store's SQL: every statement the SQL store logic runs, in PostgreSQL's dialect
// (still written with ?N parameters, which pg::Connection translates).

#include "sqlstore/queries.hpp"

namespace mailroom::providers::postgres {

// The PostgreSQL text of every query (sql.cpp and the per-feature sql_*.cpp files).
const sqlstore::Queries& postgres_queries();

// The per-feature parts, each in its own file.
const sqlstore::ClaimQueries& postgres_claim_queries();       // sql_claims.cpp
const sqlstore::HealthQueries& postgres_health_queries();     // sql_health.cpp
const sqlstore::ListQueries& postgres_list_queries();         // sql_lists.cpp
const sqlstore::TransferQueries& postgres_transfer_queries(); // sql_transfer.cpp

} // namespace mailroom::providers::postgres
