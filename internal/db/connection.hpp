#pragma once

// db::Connection: a connection to the SQL engine behind a store, and db::Transaction, the RAII
// transaction every write runs in. Implemented by sqlite::Database and pg::Connection.

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "db/statement.hpp"

namespace mailroom::db {

// What a transaction is for. `write` takes the engine's write lock (SQLite: BEGIN IMMEDIATE) so
// nothing between BEGIN and COMMIT can fail for lack of it; `read` gives one consistent snapshot.
// `write_if_free` is a write that never waits for a lock held elsewhere: it fails at once with
// ErrorCode::timeout instead (presence writes, which are skipped when the store is busy).
enum class TransactionKind { read, write, write_if_free };

// Error::reason of a commit whose outcome is unknown (the connection was lost after COMMIT was
// sent): the transaction may or may not be stored.
inline constexpr std::string_view k_reason_outcome_unknown = "outcome_unknown";

class Connection {
public:
  virtual ~Connection() = default;

  // A prepared statement for `sql`, reset, owned by this connection's cache and valid for the
  // connection's lifetime. SQL is written with SQLite's positional parameters (?1, ?2 ...);
  // engines with another syntax translate them. `sql` must outlive the connection (the cache
  // keys on it). Errors: store_error when `sql` does not compile.
  virtual Result<Statement*> cached(std::string_view sql) = 0;

  // Runs `sql`, which may hold several statements and no parameters, ignoring rows (schema
  // scripts, pragmas). Errors: store_error, timeout.
  virtual Result<void> execute_script(std::string_view sql) = 0;

  // BEGIN, COMMIT and ROLLBACK. Use db::Transaction instead of calling these directly.
  virtual Result<void> begin(TransactionKind kind) = 0;
  // I/O errors and a full disk during COMMIT mean the outcome is unknown; the error says so.
  virtual Result<void> commit() = 0;
  // Never fails visibly: a failed rollback leaves nothing to report that the caller could act on.
  virtual void rollback() noexcept = 0;

  // Where this connection points, for messages: a file path or "host:port/dbname" (never a password).
  virtual std::string describe() const = 0;

  // "sqlite" or "postgresql".
  virtual std::string_view engine() const = 0;
};

// A transaction that rolls back in its destructor unless commit() succeeded. Never throws.
class Transaction {
public:
  // Begins a transaction of `kind` on `connection`. Errors: timeout, store_error.
  static Result<Transaction> begin(Connection& connection, TransactionKind kind);

  Transaction(Transaction&& other) noexcept;
  Transaction& operator=(Transaction&&) = delete;
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  ~Transaction();

  // COMMIT. After a failed commit the destructor still rolls back whatever is left.
  Result<void> commit();

private:
  explicit Transaction(Connection& connection) : m_connection(&connection) {}
  Connection* m_connection;
  bool m_done = false;
};

} // namespace mailroom::db
