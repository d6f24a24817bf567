#include <utility>

#include <fmt/format.h>
#include <sqlite3.h>

#include "sqlite/database.hpp"

namespace mailroom::sqlite {

Result<Transaction> Transaction::begin(Database& db, Behavior behavior)
{
  const char* sql = "BEGIN IMMEDIATE";
  if (behavior == Behavior::deferred) {
    sql = "BEGIN DEFERRED";
  } else if (behavior == Behavior::exclusive) {
    sql = "BEGIN EXCLUSIVE";
  }
  TRY(db.execute_script(sql));
  return Transaction(db);
}

Transaction::Transaction(Transaction&& other) noexcept
    : m_db(other.m_db), m_done(std::exchange(other.m_done, true))
{
}

Transaction::~Transaction()
{
  if (!m_done && sqlite3_get_autocommit(m_db->handle()) == 0) {
    // Errors are ignored: a failed rollback leaves the transaction to be rolled back when the
    // connection closes, and a destructor has no one to report to.
    sqlite3_exec(m_db->handle(), "ROLLBACK", nullptr, nullptr, nullptr);
  }
}

Result<void> Transaction::commit()
{
  const int rc = sqlite3_exec(m_db->handle(), "COMMIT", nullptr, nullptr, nullptr);
  if (rc == SQLITE_OK) {
    m_done = true;
    return {};
  }
  Error error = m_db->error(rc);
  const int primary = rc & 0xFF;
  if (primary == SQLITE_IOERR || primary == SQLITE_FULL) {
    // After a failed fsync the data may or may not be on disk; retrying cannot tell
    // (reliability.md §1.7), so say the outcome is unknown.
    error.message = fmt::format("commit failed, the outcome is unknown (the message may or may not "
                                "have been stored): {}",
                                error.message);
  }
  return error;
}

} // namespace mailroom::sqlite
