#pragma once

// Internal to internal/sqlite: the per-connection state shared by Database, Statement and
// Transaction, and the mapping of SQLite result codes to Error.

#include <chrono>
#include <cstdint>
#include <string>

#include "base/result.hpp"

struct sqlite3;

namespace mailroom::sqlite::detail {

struct Connection {
  sqlite3* handle = nullptr;
  std::string path;
  std::chrono::milliseconds busy_timeout{5000};
  // A read-only connection: only recovery by another process can make it wait, which takes
  // microseconds, so its busy handler polls in short sleeps (busy_handler).
  bool reader = false;
  // While set, the busy handler answers at once (a checkpoint that must never wait).
  bool no_wait = false;
  // Busy handler state: when the current wait began, and a jitter generator.
  std::chrono::steady_clock::time_point wait_started{};
  std::uint64_t jitter_state = 0;
};

// The error for `rc` (a primary or extended SQLite result code) on `connection`: timeout for a lock
// held past the busy timeout; store_error naming the path otherwise, with the cause spelled out
// for a full disk, a permission problem and a file that is not a database (failure.hpp).
Error connection_error(const Connection& connection, int rc);

// SQLite's busy handler for `connection` (passed as `context`): jittered sleeps backing off from
// 0.1 ms to 10 ms (for a reader, from 10 us to 1 ms) until the busy timeout has passed (measured on
// the steady clock) since the statement's first retry; none when no_wait.
int busy_handler(void* context, int attempts);

// The next number from `connection`'s jitter generator (xorshift64; not for secrets).
std::uint64_t next_jitter(Connection& connection);

} // namespace mailroom::sqlite::detail
