#pragma once

// The PostgreSQL store's SQL: every statement the SQL store logic runs, in PostgreSQL's dialect
// (still written with ?N parameters, which pg::Connection translates).

#include "sqlstore/queries.hpp"

namespace mailroom::providers::postgres {

// The PostgreSQL text of every query (sql.cpp and the per-feature sql_*.cpp files).
const sqlstore::Queries& postgres_queries();

} // namespace mailroom::providers::postgres
