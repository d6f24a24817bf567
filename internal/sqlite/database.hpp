#pragma once

// An RAII SQLite layer with SQLiteCpp's semantics but Result errors instead of exceptions.
// Every connection gets the settings of reliability.md §1.1: WAL, a busy handler covering every
// statement, synchronous FULL or NORMAL, foreign keys, a bounded WAL file and defensive mode.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "sqlite/statement.hpp"

struct sqlite3;

namespace mailroom::sqlite {

struct OpenOptions {
  bool create = true;                          // add SQLITE_OPEN_CREATE
  std::chrono::milliseconds busy_timeout{5000}; // total wait for a lock, per statement
  bool synchronous_full = true;                // FULL, else NORMAL
  bool private_files = true;                   // umask 077 while opening: db, -wal, -shm are 0600
  std::int64_t max_length = 16 * 1024 * 1024;  // SQLITE_LIMIT_LENGTH, a backstop for size caps
};

class Database {
public:
  // Opens (with `options.create`, creates) the database at `path` (":memory:" for a private
  // in-memory one) and applies the connection settings. A symlink as the last path component is
  // refused. Errors: store_error naming `path` (cannot open, not a database, read-only), timeout.
  static Result<Database> open(const std::string& path, const OpenOptions& options = {});

  Database(Database&&) noexcept;
  Database& operator=(Database&&) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  ~Database();

  // A prepared statement for `sql`, reset and with no bindings, owned by this connection's cache.
  // The reference stays valid as long as the Database. `sql` must outlive the Database when it is
  // a constant (the cache keys on its text). Errors: store_error when `sql` does not compile.
  Result<Statement*> cached(std::string_view sql);

  // A new statement not in the cache (for one-off SQL). Errors: store_error.
  Result<Statement> prepare(std::string_view sql);

  // Runs `sql`, which may hold several statements, ignoring any rows (schema scripts).
  // Errors: store_error, timeout.
  Result<void> execute_script(std::string_view sql);

  // The detail lines of EXPLAIN QUERY PLAN for `sql`, which must be one of the program's own SQL
  // constants (it is prefixed, not bound). For tests that pin query plans. Errors: store_error.
  Result<std::vector<std::string>> query_plan(std::string_view sql);

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
  std::unique_ptr<State> m_state;
};

enum class Behavior { deferred, immediate, exclusive };

// A transaction that rolls back in its destructor unless commit() succeeded. Never throws.
class Transaction {
public:
  // BEGIN with `behavior`; every write uses immediate. Errors: timeout, store_error.
  static Result<Transaction> begin(Database& db, Behavior behavior = Behavior::immediate);

  Transaction(Transaction&& other) noexcept;
  Transaction& operator=(Transaction&&) = delete;
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  ~Transaction();

  // COMMIT. I/O errors and a full disk here mean the outcome is unknown, and the error says so.
  // After a failed commit the destructor still rolls back whatever is left.
  // Errors: store_error, timeout.
  Result<void> commit();

private:
  explicit Transaction(Database& db) : m_db(&db) {}
  Database* m_db;
  bool m_done = false;
};

} // namespace mailroom::sqlite
