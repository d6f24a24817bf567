// sqlite::Database's transactions: begin, commit (and what a failed COMMIT means), the WAL
// checkpoints after a write, and rollback.

#include <fmt/format.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include "sqlite/database.hpp"
#include "sqlite/database_state.hpp"
#include "sqlite/failure.hpp"

namespace mailroom::sqlite {

Result<void> Database::begin(db::TransactionKind kind)
{
  const bool write = kind != db::TransactionKind::read;
  // A write that must not wait: the busy handler answers at once for the whole transaction.
  m_state->connection.no_wait = kind == db::TransactionKind::write_if_free;
  auto begun = execute_script(write ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED");
  if (!begun.ok()) {
    m_state->connection.no_wait = false;
    return begun;
  }
  m_state->in_write = write;
  return {};
}

Result<void> Database::commit()
{
  const int rc = sqlite3_exec(m_state->connection.handle, "COMMIT", nullptr, nullptr, nullptr);
  const bool wrote = std::exchange(m_state->in_write, false);
  m_state->connection.no_wait = false;
  if (rc == SQLITE_OK) {
    if (wrote) {
      // Committed: the data is safe in the WAL whatever the checkpoint does.
      (void)checkpoint();
    }
    return {};
  }
  Error error = detail::connection_error(m_state->connection, rc);
  const int primary = rc & 0xFF;
  if (primary == SQLITE_FULL) {
    // In WAL mode a commit is the last frame written; a write that failed for lack of space
    // never wrote it, and the transaction is rolled back. Truncating the WAL gives back the space
    // the failed frames took, so a failure leaves the disk no fuller than before.
    m_state->in_write = wrote;
    rollback();
    return sqlite::no_space_error(m_state->connection.path, "nothing was stored");
  }
  if (primary == SQLITE_IOERR) {
    // After a failed fsync the data may or may not be on disk, and retrying cannot tell which,
    // so say the outcome is unknown.
    error.message = fmt::format("commit failed, the outcome is unknown (the message may or may not "
                                "have been stored): {}",
                                error.message);
  }
  return error;
}

Result<void> Database::checkpoint()
{
  return checkpoint_wal(false);
}

Result<void> Database::checkpoint_wal(bool after_rollback)
{
  if (m_state->read_only || m_state->in_memory) {
    return {};
  }
  // First PASSIVE: copy the WAL into the database and sync it without the write lock, so other
  // writers never wait for this copy. Then TRUNCATE without waiting (the busy handler answers at
  // once): with everything copied it only takes the write lock to cut the WAL to zero bytes; when
  // another writer holds that lock, or a reader still uses WAL frames, the WAL is left as it is
  // for the next writer. Readers never wait on either.
  // An empty WAL is left alone: TRUNCATE would restart it anyway (new salts in the WAL index, an
  // ftruncate of the -wal file), which every other connection sees as a change (data_version), so a
  // write transaction that wrote nothing (a watcher finding nothing to claim) would wake every
  // waiter on the store, itself included, in a loop. After a rollback the log can hold no
  // committed frame and still have bytes: the frames the rolled-back write spilled or wrote
  // before it failed (a full disk). Those are cut too, so the failure gives the space back.
  detail::Connection& connection = m_state->connection;
  connection.no_wait = true;
  int frames = 0;
  int rc = sqlite3_wal_checkpoint_v2(connection.handle, nullptr, SQLITE_CHECKPOINT_PASSIVE, &frames, nullptr);
  struct stat wal {};
  const bool dead_frames = after_rollback && frames == 0 &&
                           ::stat((connection.path + "-wal").c_str(), &wal) == 0 && wal.st_size > 0;
  if (rc == SQLITE_OK && (frames > 0 || dead_frames)) {
    rc = sqlite3_wal_checkpoint_v2(connection.handle, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr);
  }
  connection.no_wait = false;
  if (rc != SQLITE_OK && (rc & 0xFF) != SQLITE_BUSY && (rc & 0xFF) != SQLITE_LOCKED) {
    return detail::connection_error(connection, rc);
  }
  return {};
}

void Database::rollback() noexcept
{
  const bool wrote = std::exchange(m_state->in_write, false);
  m_state->connection.no_wait = false;
  if (sqlite3_get_autocommit(m_state->connection.handle) == 0) {
    // Errors are ignored: a failed rollback leaves the transaction to be rolled back when the
    // connection closes, and there is no one to report to.
    sqlite3_exec(m_state->connection.handle, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  if (wrote) {
    // Frames a rolled-back write left in the WAL (a large transaction spills pages there, a
    // commit on a full disk wrote some before it failed) are dead weight on disk: the checkpoint
    // truncates them away when nobody else needs the WAL.
    (void)checkpoint_wal(true);
  }
}

} // namespace mailroom::sqlite
