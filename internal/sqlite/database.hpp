#pragma once

// An RAII SQLite layer with SQLiteCpp's semantics but Result errors instead of exceptions.
// Every connection gets the same settings: WAL, a busy handler covering every
// statement, synchronous FULL or NORMAL, foreign keys, a bounded WAL file and defensive mode.
//
// The WAL and its index (-wal, -shm) persist between processes (docs/store.md): no connection
// checkpoints on close (a closing connection's checkpoint holds the database's exclusive lock, so
// a reader starting then waits), no connection deletes them, and after every write transaction
// the writer checkpoints and truncates the WAL without waiting for anyone, so a reader that comes
// later finds an empty WAL. A read-only connection never writes a byte: it maps the WAL index
// read-only (readonly_shm), and with no other process attached reads the (empty) WAL itself.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "db/connection.hpp"
#include "sqlite/statement.hpp"

struct sqlite3;

namespace mailroom::sqlite {

struct OpenOptions {
  bool create = true;                           // add SQLITE_OPEN_CREATE
  bool read_only = false;                       // SQLITE_OPEN_READONLY + readonly_shm: writes nothing
  std::chrono::milliseconds busy_timeout{5000}; // total wait for a lock, per statement
  bool synchronous_full = true;                 // FULL, else NORMAL
  bool private_files = true;                    // umask 077 while opening: db, -wal, -shm are 0600
  std::int64_t max_length = 16 * 1024 * 1024;   // SQLITE_LIMIT_LENGTH, a backstop for size caps
  std::optional<std::int64_t> cache_kib;        // PRAGMA cache_size in KiB; nullopt: SQLite's 2 MiB
};

class Database final : public db::Connection {
public:
  // Opens (with `options.create`, creates) the database at `path` (":memory:" for a private
  // in-memory one) and applies the connection settings. A symlink as the last path component is
  // refused. A read-only open reads nothing yet (its first statement does; it needs the -shm file
  // to exist). Errors: store_error naming `path` (cannot open, not a database, permission, no
  // space), timeout.
  static Result<Database> open(const std::string& path, const OpenOptions& options = {});

  Database(Database&&) noexcept;
  Database& operator=(Database&&) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  ~Database() override;

  // A prepared statement for `sql`, reset and with no bindings, owned by this connection's cache
  // (db::Connection::cached).
  Result<db::Statement*> cached(std::string_view sql) override;

  // A new statement not in the cache (for one-off SQL). Errors: store_error.
  Result<Statement> prepare(std::string_view sql);

  // Runs `sql`, which may hold several statements, ignoring any rows (schema scripts).
  // Errors: store_error, timeout.
  Result<void> execute_script(std::string_view sql) override;

  // BEGIN IMMEDIATE for writes (the write lock is taken at once, so nothing up to COMMIT waits
  // for it), BEGIN DEFERRED for reads. Errors: timeout, store_error.
  Result<void> begin(db::TransactionKind kind) override;
  // COMMIT; an I/O error here says the outcome is unknown, a full disk that nothing was stored.
  // After a write transaction, checkpoints (checkpoint()).
  Result<void> commit() override;
  void rollback() noexcept override;
  std::string describe() const override;
  std::string_view engine() const override { return "sqlite"; }

  // The detail lines of EXPLAIN QUERY PLAN for `sql`, which must be one of the program's own SQL
  // constants (it is prefixed, not bound). For tests that pin query plans. Errors: store_error.
  Result<std::vector<std::string>> query_plan(std::string_view sql);

  // Copies the WAL into the database and truncates it to zero bytes, never waiting: while another
  // connection writes, or a reader still needs WAL frames, it copies what it can (or nothing) and
  // leaves the rest to the next writer. A no-op for a read-only or in-memory connection.
  // Errors: store_error (the data is safe in the WAL either way).
  Result<void> checkpoint();

  // The rowid of the last successful INSERT on this connection.
  std::int64_t last_insert_rowid() const;

  // The path as given to open().
  const std::string& path() const;

  // The raw handle, for the few calls this wrapper does not cover.
  sqlite3* handle() const;

  // Exposed for Statement and Transaction: the error for return code `rc` of the last call.
  Error error(int rc) const;

  struct State;

private:
  explicit Database(std::unique_ptr<State> state);
  // sqlite3_open_v2 and the per-handle settings (busy handler, limits, defensive mode).
  static Result<Database> open_connection(const std::string& path, const OpenOptions& options);
  // checkpoint(); `after_rollback` also cuts a WAL that holds bytes but no committed frame.
  Result<void> checkpoint_wal(bool after_rollback);
  std::unique_ptr<State> m_state;
};

} // namespace mailroom::sqlite
