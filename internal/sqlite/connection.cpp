#include "sqlite/connection.hpp"

#include <thread>

#include <fmt/format.h>
#include <sqlite3.h>

namespace mailroom::sqlite::detail {

mail::Error connection_error(const Connection& connection, int rc)
{
  const int primary = rc & 0xFF;
  if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) {
    return mail::make_error(
        mail::ErrorCode::timeout,
        fmt::format("database is locked (waited {} ms)", connection.busy_timeout.count()),
        fmt::format("another process holds the lock on \"{}\"; try again", connection.path));
  }
  // sqlite3_errmsg describes the most recent failure; when it has been overwritten since, the
  // generic text for the code is still accurate.
  const char* message = connection.handle != nullptr ? sqlite3_errmsg(connection.handle) : nullptr;
  if (message == nullptr || sqlite3_errcode(connection.handle) != rc) {
    message = sqlite3_errstr(rc);
  }
  return mail::make_error(mail::ErrorCode::store_error,
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
  // xorshift64: cheap jitter so that waiting writers do not wake in lock step.
  std::uint64_t x = connection.jitter_state;
  x ^= x << 13U;
  x ^= x >> 7U;
  x ^= x << 17U;
  connection.jitter_state = x;
  const auto sleep = std::chrono::microseconds(100 + static_cast<std::int64_t>(x % 401U));
  std::this_thread::sleep_for(sleep);
  return 1;
}

} // namespace mailroom::sqlite::detail
