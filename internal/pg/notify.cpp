// LISTEN/NOTIFY for pg::Connection (declared in connection.hpp).

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>

#include <fmt/format.h>
#include <libpq-fe.h>
#include <poll.h>

#include "pg/connection.hpp"
#include "pg/io.hpp"

namespace mailroom::pg {

namespace {

constexpr std::size_t k_max_channel = 63;   // NAMEDATALEN - 1
constexpr std::size_t k_max_payload = 7999; // the server refuses 8000 bytes and more

Result<void> check_channel(const detail::Session& session, std::string_view channel)
{
  if (channel.empty() || channel.size() > k_max_channel || channel.find('\0') != std::string_view::npos) {
    return make_error(ErrorCode::store_error,
                      fmt::format("postgresql at \"{}\": bad notification channel \"{}\" (1 to {} "
                                  "bytes, no NUL)",
                                  session.where, channel.substr(0, k_max_channel), k_max_channel));
  }
  return {};
}

// Consumes every queued notification; true when one came from another session (or from any
// session, when `own` says to count this one's).
bool drain_notifications(PGconn* conn, OwnNotifications own)
{
  bool arrived = false;
  const int own_pid = PQbackendPID(conn);
  while (PGnotify* notification = PQnotifies(conn)) {
    arrived = arrived || own == OwnNotifications::count || notification->be_pid != own_pid;
    PQfreemem(notification);
  }
  return arrived;
}

} // namespace

Result<void> Connection::listen(std::string_view channel)
{
  detail::Session& session = this->session();
  TRY(check_channel(session, channel));
  // LISTEN takes an identifier, not a parameter: the channel goes in quoted by libpq.
  char* quoted = PQescapeIdentifier(session.conn, channel.data(), channel.size());
  if (quoted == nullptr) {
    return detail::command_error(session, nullptr);
  }
  const std::string sql = fmt::format("LISTEN {}", quoted);
  PQfreemem(quoted);
  TRY(detail::check_result(session, detail::await_result(session, PQsendQuery(session.conn, sql.c_str()))));
  return {};
}

Result<void> Connection::notify(std::string_view channel, std::string_view payload)
{
  detail::Session& session = this->session();
  TRY(check_channel(session, channel));
  if (payload.size() > k_max_payload || payload.find('\0') != std::string_view::npos) {
    return make_error(ErrorCode::store_error,
                      fmt::format("postgresql at \"{}\": a notification payload has at most {} "
                                  "bytes and no NUL",
                                  session.where, k_max_payload));
  }
  const std::string channel_text(channel);
  const std::string payload_text(payload);
  const char* params[] = {channel_text.c_str(), payload_text.c_str()};
  TRY(detail::check_result(
      session, detail::await_result(session, PQsendQueryParams(session.conn, "SELECT pg_notify($1, $2)", 2,
                                                               nullptr, params, nullptr, nullptr, 0))));
  return {};
}

Result<bool> Connection::wait_for_notification(std::chrono::steady_clock::time_point deadline,
                                               OwnNotifications own)
{
  detail::Session& session = this->session();
  while (true) {
    // Read whatever the socket holds, then look at the queue: notifications that came in with
    // the results of earlier commands are already there.
    if (PQconsumeInput(session.conn) == 0) {
      return detail::command_error(session, nullptr);
    }
    if (drain_notifications(session.conn, own)) {
      return true;
    }
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      return false;
    }
    const auto remaining = std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count();
    pollfd descriptor{};
    descriptor.fd = PQsocket(session.conn);
    descriptor.events = POLLIN;
    if (descriptor.fd < 0) {
      return detail::command_error(session, nullptr);
    }
    const int ready = ::poll(&descriptor, 1, static_cast<int>(std::min<long long>(remaining, INT_MAX)));
    if (ready < 0 && errno != EINTR) {
      return make_error(ErrorCode::store_error,
                        fmt::format("postgresql at \"{}\": waiting for notifications: {}", session.where,
                                    std::strerror(errno)));
    }
  }
}

} // namespace mailroom::pg
