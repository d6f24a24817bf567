// Connecting to the server with a deadline and without a word on stderr (connect.hpp).

#include "pg/connect.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>

#include <poll.h>

#include "pg/tls_start.hpp"

namespace mailroom::pg {

namespace {

void ignore_notice(void* /*context*/, const char* /*message*/) {}

} // namespace

// PQconnectdbParams, except that the notice processor is in place before the server says
// anything: a server shutting down while we connect sends "WARNING: terminating connection due
// to immediate shutdown command", which libpq's default processor prints to stderr
// (integration/postgres_crash.sh caught one). libpq leaves the timeout of a polled connection to
// its caller: `timeout` bounds the whole attempt (zero: none). Null only when out of memory;
// `timed_out` says the deadline passed with the connection still pending.
PGconn* connect_quietly(const char* const* keywords, const char* const* values, std::chrono::seconds timeout,
                        bool& timed_out)
{
  timed_out = false;
  start_tls_library();
  PGconn* conn = PQconnectStartParams(keywords, values, 1);
  if (conn == nullptr) {
    return nullptr;
  }
  PQsetNoticeProcessor(conn, ignore_notice, nullptr);
  if (PQstatus(conn) == CONNECTION_BAD) {
    return conn;
  }
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  PostgresPollingStatusType status = PGRES_POLLING_WRITING;
  while (status != PGRES_POLLING_OK && status != PGRES_POLLING_FAILED) {
    int wait_ms = -1;
    if (timeout.count() > 0) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        timed_out = true;
        return conn;
      }
      wait_ms = static_cast<int>(left.count());
    }
    pollfd fd{PQsocket(conn), static_cast<short>(status == PGRES_POLLING_READING ? POLLIN : POLLOUT), 0};
    if (fd.fd < 0) {
      break; // PQconnectPoll reports the failure
    }
    if (const int ready = ::poll(&fd, 1, wait_ms); ready < 0 && errno == EINTR) {
      continue;
    }
    status = PQconnectPoll(conn);
  }
  return conn;
}

// The connect timeout libpq would apply: the URL's connect_timeout (anything under 2 s counts as
// 2 s, zero as none), else the default.
std::chrono::seconds effective_timeout(const char* url_value, std::chrono::seconds fallback)
{
  long seconds = fallback.count();
  if (url_value != nullptr && *url_value != '\0') {
    char* end = nullptr;
    seconds = std::strtol(url_value, &end, 10);
    if (end == url_value) {
      seconds = fallback.count();
    }
  }
  if (seconds <= 0) {
    return std::chrono::seconds(0);
  }
  return std::chrono::seconds(std::max(seconds, 2L));
}

} // namespace mailroom::pg
