#include "sqlite/connection.hpp"
#include "sqlite/failure.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

#include <fmt/format.h>
#include <sqlite3.h>

namespace mailroom::sqlite::detail {

Error connection_error(const Connection& connection, int rc)
{
  const int primary = rc & 0xFF;
  if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) {
    return make_error(ErrorCode::timeout,
                      fmt::format("database is locked (waited {} ms)", connection.busy_timeout.count()),
                      fmt::format("another process holds the lock on \"{}\"; try again", connection.path));
  }
  // The errno behind the failure; SQLite records it only for CANTOPEN and IOERR.
  const int system_errno =
      connection.handle != nullptr && (primary == SQLITE_CANTOPEN || primary == SQLITE_IOERR)
          ? sqlite3_system_errno(connection.handle)
          : 0;
  if (primary == SQLITE_FULL || system_errno == ENOSPC || system_errno == EDQUOT) {
    return sqlite::no_space_error(connection.path, "");
  }
  if ((primary == SQLITE_CANTOPEN && (system_errno == EACCES || system_errno == EPERM)) ||
      primary == SQLITE_PERM) {
    return sqlite::permission_error(connection.path, !connection.reader);
  }
  if (primary == SQLITE_READONLY && !connection.reader) {
    // A read-write open of a file this user may only read falls back to read-only; the first
    // write then fails here.
    return sqlite::permission_error(connection.path, true);
  }
  if (primary == SQLITE_NOTADB) {
    Error error =
        make_error(ErrorCode::store_error,
                   fmt::format("\"{}\" is not a mailroom store (not a SQLite database)", connection.path),
                   "check the store path (--db, MAILROOM_DB or [store] path)");
    error.reason = "not_a_database";
    return error;
  }
  // sqlite3_errmsg describes the most recent failure; when it has been overwritten since, the
  // generic text for the code is still accurate.
  const char* message = connection.handle != nullptr ? sqlite3_errmsg(connection.handle) : nullptr;
  if (message == nullptr || sqlite3_errcode(connection.handle) != rc) {
    message = sqlite3_errstr(rc);
  }
  if (system_errno != 0) {
    return make_error(ErrorCode::store_error,
                      fmt::format("{} ({}): \"{}\"", message, std::strerror(system_errno), connection.path));
  }
  return make_error(ErrorCode::store_error, fmt::format("{}: \"{}\"", message, connection.path));
}

int busy_handler(void* context, int attempts)
{
  auto& connection = *static_cast<Connection*>(context);
  if (connection.no_wait) {
    return 0;
  }
  const auto now = std::chrono::steady_clock::now();
  if (attempts == 0) {
    connection.wait_started = now;
  }
  if (now - connection.wait_started >= connection.busy_timeout) {
    return 0;
  }
  const std::uint64_t x = next_jitter(connection);
  // Exponential back-off from 0.1 ms to 10 ms, each sleep jittered to [d/2, d]. Short first sleeps
  // keep short waits short. The cap is the point: writers polling faster slow the lock holder's
  // COMMIT until every waiter hits the timeout; a smaller cap did not prevent that, 10 ms did
  // (BENCHMARKS.md, "Measurements behind the code"). It still oversleeps far less than SQLite's own
  // handler (100 ms).
  // A reader never waits for a writer or a checkpoint (WAL, no checkpoint on close); what is left,
  // another process rebuilding the WAL index, takes microseconds: poll from 10 us to a 1 ms cap.
  const auto first_sleep = connection.reader ? std::chrono::microseconds(10) : std::chrono::microseconds(100);
  const auto max_sleep =
      connection.reader ? std::chrono::microseconds(1000) : std::chrono::microseconds(10000);
  const int doublings = std::min(attempts, 16);
  const auto ceiling = std::min(first_sleep * (std::int64_t{1} << doublings), max_sleep);
  const auto half = ceiling / 2;
  const auto sleep = half + std::chrono::microseconds(
                                static_cast<std::int64_t>(x % static_cast<std::uint64_t>(half.count() + 1)));
  std::this_thread::sleep_for(sleep);
  return 1;
}

std::uint64_t next_jitter(Connection& connection)
{
  // xorshift64: cheap jitter so that waiting writers do not wake in lock step.
  std::uint64_t x = connection.jitter_state;
  x ^= x << 13U;
  x ^= x >> 7U;
  x ^= x << 17U;
  connection.jitter_state = x;
  return x;
}

} // namespace mailroom::sqlite::detail
