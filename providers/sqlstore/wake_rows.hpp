#pragma once

// Reading and binding wake rows (wake_sql.hpp's columns), shared by wake.cpp, export and import.

#include "db/statement.hpp"
#include "mail/transfer.hpp"
#include "mail/wake.hpp"

namespace mailroom::providers::sqlstore {

// A row of MR_SQL_WAKE_ROW_COLUMNS.
mail::WakeRow wake_row_from(const db::Statement& row);
// A row of MR_SQL_WAKE_ROW_COLUMNS with its host, uid and socket.
mail::WakeRecord wake_record_from(const db::Statement& row);
// A row of MR_SQL_WAKE_TARGET_COLUMNS.
mail::WakeTarget wake_target_from(const db::Statement& row);
// The same with its hook_at.
mail::WakeTargetRecord wake_target_record_from(const db::Statement& row);

// Binds `record` to WakeQueries::import_row's 15 parameters.
Result<void> bind_wake_record(db::Statement& statement, const mail::WakeRecord& record);

} // namespace mailroom::providers::sqlstore
