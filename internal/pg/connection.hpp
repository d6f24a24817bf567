#pragma once

// pg::Connection: an RAII connection to a PostgreSQL server through libpq, implementing
// db::Connection for the stores, plus LISTEN/NOTIFY for waking waiters.
//
// Notes for stores written on it:
//  - SQL uses SQLite's ?1, ?2 ... parameters (translated to $1, $2 ...; see parameters.hpp).
//  - Text comparisons and ORDER BY follow the database's collation, which is usually linguistic
//    (en_US.UTF-8 and the like), not bytewise. Where order or equality must be bytewise, as
//    SQLite's is, the schema or query says COLLATE "C" (e.g. `name TEXT COLLATE "C"`). The test
//    server's default collation is ICU en-US on purpose, so a missing COLLATE "C" shows in tests.
//  - Writes run in SERIALIZABLE transactions and may fail at any statement or at COMMIT with an
//    Error whose `transient` is set (SQLSTATE 40001 serialization_failure, 40P01
//    deadlock_detected). Roll back and run the whole transaction again.
//  - After an error inside a transaction, PostgreSQL refuses every further statement until the
//    rollback: let db::Transaction's destructor roll back, then retry or give up.
//  - A unique violation is a store_error with last_sqlstate() == k_unique_violation ("23505").
//
// Every error is one line naming the server as "host:port/dbname" and never the password: text
// from libpq and the server has every form of the URL's password replaced by "***".

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "db/connection.hpp"
#include "pg/sqlstate.hpp"
#include "pg/statement.hpp"

struct pg_conn;

namespace mailroom::pg {

struct OpenOptions {
  // Used when the URL has no connect_timeout. libpq applies it to each host and address it
  // tries, and counts anything under 2 s as 2 s.
  std::chrono::seconds connect_timeout{5};
  // When above zero, the session's statement_timeout: a longer statement fails with timeout.
  std::chrono::milliseconds statement_timeout{0};
  // [store] timeout: the client's own bound on a dead link (zero: none). Every wait for an
  // answer that lasts longer closes the connection with an error ("no answer within N ms"), and
  // unless the URL sets them, libpq's tcp_user_timeout and keepalives_* are derived from it so
  // that the kernel gives up on unacknowledged data and on a silent peer within it too. The
  // connect timeout is never longer than it.
  std::chrono::milliseconds io_timeout{30000};
  // A transaction-pooling pooler (PgBouncer pool_mode=transaction) sits in front of the server:
  // statements are unnamed (never PQprepare) and nothing is set for the session.
  bool transaction_pooler = false;
  // Where to remember, for a URL with several hosts and target_session_attrs read-write or
  // primary, the host that last accepted the session, tried first next time (host_memory.hpp).
  // Empty: nothing is remembered.
  std::string host_memory_dir;
};

// Whether wait_for_notification counts notifications this connection sent itself.
enum class OwnNotifications { drop, count };

class Connection final : public db::Connection {
public:
  // Connects to the server named by `url` (postgresql://[user[:password]@][host][:port][/dbname]
  // [?param=value...], as libpq reads it, including host=/socket/dir for a Unix socket). The
  // session uses client_encoding UTF8 and fallback_application_name "mailroom"; server notices
  // are discarded. Errors: store_error, one line, naming host:port/dbname with libpq's reason
  // ("cannot connect to postgresql at "db:5432/mail": connection refused", "password
  // authentication failed for user ...", "database ... does not exist", "timeout expired") and
  // libpq's hint; "bad postgresql url: ..." for a URL libpq cannot parse.
  static Result<Connection> open(std::string_view url, const OpenOptions& options = {});

  Connection(Connection&&) noexcept;
  Connection& operator=(Connection&&) noexcept;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  ~Connection() override;

  // The statement for `sql`, prepared on the server at its first use on this connection and
  // cached by its text; each call returns it reset, with every parameter NULL.
  // Errors: store_error (does not compile, with the server's reason), timeout.
  Result<db::Statement*> cached(std::string_view sql) override;
  // As cached(), typed.
  Result<Statement*> cached_statement(std::string_view sql);

  // Runs `sql` (several statements allowed, no parameters) with the simple query protocol,
  // ignoring rows. Errors: store_error, timeout.
  Result<void> execute_script(std::string_view sql) override;

  // read: BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY (one snapshot for every statement).
  // write: BEGIN ISOLATION LEVEL SERIALIZABLE. Errors: store_error (also when a transaction is
  // already open), timeout.
  Result<void> begin(db::TransactionKind kind) override;
  // COMMIT. A transaction that had failed is rolled back by the server instead: that is a
  // store_error too. Serialization failures here are transient. A connection lost during COMMIT
  // gives an error saying the outcome is unknown.
  Result<void> commit() override;
  // ROLLBACK when a transaction is open and the connection is up; never fails visibly.
  void rollback() noexcept override;

  // "host:port/dbname" (for a Unix socket, host is the socket's directory).
  std::string describe() const override;
  std::string_view engine() const override { return "postgresql"; }

  // LISTEN on `channel` (any text up to 63 bytes, case-sensitive, no NUL). Outside a
  // transaction it takes effect at once; inside one, at its commit. Errors: store_error.
  Result<void> listen(std::string_view channel);
  // pg_notify(channel, payload): delivered to every listener (this connection's own too) when
  // the current transaction commits, or at once outside one. Payload: under 8000 bytes, no NUL.
  // Errors: store_error.
  Result<void> notify(std::string_view channel, std::string_view payload);
  // Waits until a notification from another session arrives on a channel this connection
  // listens on, or until `deadline`. True: at least one arrived (all queued ones are consumed);
  // false: the deadline passed. Notifications sent by this connection itself are dropped, unless
  // `own` is OwnNotifications::count (a store whose own writes must wake its waiters too).
  // Call it outside a transaction (the server delivers notifications between transactions).
  // A notification is only a hint that something may have changed: it can be coalesced with
  // others, and one sent before listen() took effect is never seen. So: listen(), commit or be
  // outside a transaction, re-read the state, then wait, and re-read after every wake-up.
  // Errors: store_error when the connection fails or is lost.
  Result<bool> wait_for_notification(std::chrono::steady_clock::time_point deadline,
                                     OwnNotifications own = OwnNotifications::drop);

  // The SQLSTATE of the last failed command on this connection ("23505", "40001", ...);
  // k_connection_failure after the connection was lost; empty after a success.
  const std::string& last_sqlstate() const;
  // The server process id of this session (pg_backend_pid()).
  int backend_pid() const;
  // The raw libpq handle, for the few calls this wrapper does not cover.
  pg_conn* handle() const;

  struct State;

private:
  explicit Connection(std::unique_ptr<State> state);
  detail::Session& session() const;
  std::unique_ptr<State> m_state;
};

} // namespace mailroom::pg
