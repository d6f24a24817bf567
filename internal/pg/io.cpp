#include "pg/io.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>

#include <libpq-fe.h>
#include <poll.h>

namespace mailroom::pg::detail {

namespace {

using Clock = std::chrono::steady_clock;

// Closes the connection whose answer did not come in time: whatever it was doing is abandoned
// (the server rolls back an open transaction when it notices), and the next use reconnects.
void expire(Session& session)
{
  session.expired = true;
  PQfinish(session.conn);
  session.conn = nullptr;
}

// Polls the socket for `events` until it is ready or `deadline` passes (false). No deadline
// (io_timeout zero): waits as long as it takes.
bool ready(Session& session, short events, Clock::time_point deadline)
{
  while (true) {
    int wait_ms = -1;
    if (session.io_timeout.count() > 0) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) {
        return false;
      }
      wait_ms = static_cast<int>(std::min<long long>(left, INT_MAX));
    }
    pollfd fd{PQsocket(session.conn), events, 0};
    if (fd.fd < 0) {
      return true; // libpq reports the failure on the next call
    }
    const int result = ::poll(&fd, 1, wait_ms);
    if (result > 0 || (result < 0 && errno != EINTR)) {
      return true;
    }
  }
}

} // namespace

pg_result* await_result(Session& session, int sent)
{
  if (sent == 0 || session.conn == nullptr) {
    return nullptr;
  }
  const Clock::time_point deadline = Clock::now() + session.io_timeout;
  // Flush what the send left buffered (libpq buffers a large command when the socket is full).
  int flushed = 0;
  while ((flushed = PQflush(session.conn)) == 1) {
    if (!ready(session, POLLIN | POLLOUT, deadline)) {
      expire(session);
      return nullptr;
    }
    if (PQconsumeInput(session.conn) == 0) {
      break;
    }
  }
  pg_result* kept = nullptr;
  while (true) {
    while (PQisBusy(session.conn) != 0) {
      if (!ready(session, POLLIN, deadline)) {
        PQclear(kept);
        expire(session);
        return nullptr;
      }
      if (PQconsumeInput(session.conn) == 0) {
        break; // the connection failed: PQgetResult says how
      }
    }
    pg_result* next = PQgetResult(session.conn);
    if (next == nullptr) {
      return kept;
    }
    const ExecStatusType status = PQresultStatus(next);
    const bool kept_error = kept != nullptr && PQresultStatus(kept) == PGRES_FATAL_ERROR;
    if (status == PGRES_COPY_IN || status == PGRES_COPY_OUT || status == PGRES_COPY_BOTH) {
      PQclear(kept);
      return next; // check_result refuses COPY; nothing more comes until it ends
    }
    if (kept_error) {
      PQclear(next);
    } else {
      PQclear(kept);
      kept = next;
    }
    if (PQstatus(session.conn) == CONNECTION_BAD) {
      return kept;
    }
  }
}

} // namespace mailroom::pg::detail
