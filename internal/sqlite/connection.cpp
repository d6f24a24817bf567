#include "sqlite/connection.hpp"

#include <algorithm>
#include <thread>

#include <fmt/format.h>
#include <sqlite3.h>

namespace mailroom::sqlite::detail {

Error connection_error(const Connection& connection, int rc)
{
  const int primary = rc & 0xFF;
  if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) {
    return make_error(
        ErrorCode::timeout,
        fmt::format("database is locked (waited {} ms)", connection.busy_timeout.count()),
        fmt::format("another process holds the lock on \"{}\"; try again", connection.path));
  }
  // sqlite3_errmsg describes the most recent failure; when it has been overwritten since, the
  // generic text for the code is still accurate.
  const char* message = connection.handle != nullptr ? sqlite3_errmsg(connection.handle) : nullptr;
  if (message == nullptr || sqlite3_errcode(connection.handle) != rc) {
    message = sqlite3_errstr(rc);
  }
  return make_error(ErrorCode::store_error,
                          fmt::format("{}: \"{}\"", message, connection.path));
}

int busy_handler(void* context, int attempts)
{
  auto& connection = *static_cast<Connection*>(context);
  const auto now = std::chrono::steady_clock::now();
  if (attempts == 0) {
    connection.wait_started = now;
  }
  if (now - connection.wait_started >= connection.busy_timeout) {
    return 0;
  }
  const std::uint64_t x = next_jitter(connection);
  // Exponential back-off from 0.1 ms to 10 ms, each sleep jittered to [d/2, d]. Short first sleeps
  // keep short waits short. The cap is the point: seven writers polling every 0.1-0.5 ms on a
  // loaded 2-core machine slowed the lock holder's COMMIT from tens of ms to seconds, so every
  // waiter hit the timeout; with a 3-5 ms cap waits still reached seconds, with 10 ms they did not.
  // It still oversleeps far less than SQLite's own handler (100 ms).
  constexpr auto k_first_sleep = std::chrono::microseconds(100);
  constexpr auto k_max_sleep = std::chrono::microseconds(10000);
  const int doublings = std::min(attempts, 16);
  const auto ceiling = std::min(k_first_sleep * (std::int64_t{1} << doublings), k_max_sleep);
  const auto half = ceiling / 2;
  const auto sleep = half + std::chrono::microseconds(static_cast<std::int64_t>(
                                x % static_cast<std::uint64_t>(half.count() + 1)));
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
