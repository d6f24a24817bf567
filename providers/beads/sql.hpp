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

// The bead store's own record of who may see a message (visibility.hpp), which SqliteEngine's
// hooks run (sqlstore::Engine: mark_visible, forget_visible, unfiltered_search), not the shared
// store logic (sql_visibility.cpp).
struct VisibilityQueries {
  std::string_view mark;              // ?1 mailbox ?2 seq: the mailbox may see the message
  std::string_view clear;             // ?1 seq, before its rows are deleted: its bit cleared for
                                      // its sender and recipients (mark undone)
  std::string_view drop;              // ?1 seq, after clear: its words left with no bit removed
  std::string_view unfiltered_search; // ListQueries::search_hits with no filter (?1, ?14 only)
};
const VisibilityQueries& sqlite_visibility_queries();

} // namespace mailroom::providers::beads
