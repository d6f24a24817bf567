#include "postgres/engine.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstring>

#include <fmt/format.h>
#include <libpq-fe.h>
#include <poll.h>
#include <unistd.h>

#include "util/sleep.hpp"

namespace mailroom::providers::postgres {

namespace {

// Milliseconds since the epoch by the server's clock (clock_timestamp(), not the transaction's
// start: a long transaction must not see time stand still).
// How often a waiter whose notifications cannot arrive looks again, and how long the private
// round trip may take before notifications count as unavailable (contract "Poolers").
constexpr std::chrono::seconds k_pooled_poll{2};
constexpr std::chrono::seconds k_probe_wait{1};

// Ends a session of this role that a lost link left behind, waiting up to ?2 ms for it to go.
constexpr std::string_view k_end_session_sql =
    "SELECT pg_terminate_backend(pid, ?2) FROM pg_stat_activity WHERE pid = ?1 AND usename = current_user";

constexpr std::string_view k_now_sql =
    "SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint AS now";

// Waits on LISTEN for notifications of deliveries, from other sessions and from this store's own
// writes (the contract's waiting rules: armed before the caller's first read, a hint to re-read,
// never a busy poll).
class PgChangeSignal final : public mail::ChangeSignal {
public:
  explicit PgChangeSignal(PgEngine& engine) : m_engine(&engine), m_generation(engine.generation()) {}

  Result<mail::WakeReason> wait(std::chrono::steady_clock::time_point deadline, int interrupt_fd) override
  {
    while (true) {
      TRY_ASSIGN(pg::Connection * connection, m_engine->connection());
      if (m_engine->generation() != m_generation) {
        // A new connection: notifications sent meanwhile are lost, so listen again and let the
        // caller re-read.
        TRY(connection->listen(k_delivery_channel));
        m_generation = m_engine->generation();
        return mail::WakeReason::changed;
      }
      // Notifications that came in with the results of earlier commands are already queued. The
      // store's own deliveries count too (it shares this connection), as on the bead store.
      auto queued = connection->wait_for_notification(std::chrono::steady_clock::time_point::min(),
                                                      pg::OwnNotifications::count);
      if (!queued.ok()) {
        if (PQstatus(connection->handle()) != CONNECTION_BAD) {
          return std::move(queued).error();
        }
        // The connection was lost: the caller's next read reconnects (or reports why it cannot),
        // and the next wait listens again.
        return mail::WakeReason::changed;
      }
      if (queued.value()) {
        return mail::WakeReason::changed;
      }
      const auto now = std::chrono::steady_clock::now();
      if (now >= deadline) {
        return mail::WakeReason::timeout;
      }
      std::array<pollfd, 2> fds{};
      fds[0].fd = PQsocket(connection->handle());
      fds[0].events = POLLIN;
      fds[1].fd = interrupt_fd;
      fds[1].events = POLLIN;
      const nfds_t count = interrupt_fd >= 0 ? 2 : 1;
      const long long remaining = std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count();
      const int timeout = static_cast<int>(std::min<long long>(remaining, INT_MAX));
      const int ready = ::poll(fds.data(), count, timeout);
      if (ready < 0 && errno != EINTR) {
        return make_error(ErrorCode::store_error,
                          fmt::format("postgresql store at \"{}\": waiting for mail: {}",
                                      connection->describe(), std::strerror(errno)));
      }
      if (count == 2 && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
        return mail::WakeReason::interrupted;
      }
      // Socket readable, a timeout or EINTR: the loop reads the socket and checks the deadline.
    }
  }

private:
  PgEngine* m_engine;
  std::uint64_t m_generation;
};

// Where notifications cannot reach this session (a transaction-pooling pooler gives each
// transaction whichever server connection is free; LISTEN succeeds there, but its notifications
// are lost): looks again every k_pooled_poll.
class PollingSignal final : public mail::ChangeSignal {
public:
  Result<mail::WakeReason> wait(std::chrono::steady_clock::time_point deadline, int interrupt_fd) override
  {
    const auto next = std::min(deadline, std::chrono::steady_clock::now() + k_pooled_poll);
    if (!util::sleep_until(next, interrupt_fd)) {
      return mail::WakeReason::interrupted;
    }
    return next >= deadline ? mail::WakeReason::timeout : mail::WakeReason::changed;
  }
  std::string degraded() const override
  {
    return "notifications unavailable (pooled connection); polling every 2s";
  }
};

} // namespace

PgEngine::PgEngine(pg::Connection connection, std::string url, pg::OpenOptions options,
                   const mail::Clock& clock)
    : m_connection(std::move(connection)), m_url(std::move(url)), m_options(options), m_clock(clock),
      m_server_clock(dynamic_cast<const mail::SystemClock*>(&clock) != nullptr)
{
  m_lost_pid = m_options.transaction_pooler ? 0 : m_connection->backend_pid();
}

Result<pg::Connection*> PgEngine::connection()
{
  if (!m_connection || PQstatus(m_connection->handle()) == CONNECTION_BAD) {
    const std::string lost_where = m_connection ? m_connection->describe() : std::string();
    const int lost_pid = m_connection ? m_lost_pid : 0;
    m_connection.reset();
    TRY_ASSIGN(pg::Connection fresh, pg::Connection::open(m_url, m_options));
    m_connection.emplace(std::move(fresh));
    ++m_generation;
    m_lost_pid = m_options.transaction_pooler ? 0 : m_connection->backend_pid();
    if (lost_pid > 0 && lost_where == m_connection->describe()) {
      end_lost_session(*m_connection, lost_pid, m_options.io_timeout);
    }
  }
  return &*m_connection;
}

void PgEngine::end_lost_session(pg::Connection& connection, int pid, std::chrono::milliseconds timeout)
{
  // The server may not have noticed that the link died: the old session can still hold locks, or
  // sit in a COMMIT waiting for a synchronous standby. Ending it (and waiting until it is gone)
  // makes its transaction's outcome final, so what the new session reads next is the truth.
  // Only a session of the same role on the same server; failing to end it changes nothing.
  auto ended = [&]() -> Result<void> {
    TRY_ASSIGN(db::Statement * end, connection.cached(k_end_session_sql));
    const auto wait_ms = std::clamp<std::int64_t>(timeout.count() / 2, 100, 5000);
    TRY(end->bind(std::int64_t{pid}, wait_ms));
    while (true) {
      TRY_ASSIGN(const bool row, end->step());
      if (!row) {
        return {};
      }
    }
  }();
  (void)ended;
}

Result<db::Connection*> PgEngine::reader()
{
  TRY_ASSIGN(pg::Connection * connection, this->connection());
  return static_cast<db::Connection*>(connection);
}

Result<db::Connection*> PgEngine::writer()
{
  return reader();
}

Result<mail::UnixMillis> PgEngine::now()
{
  if (!m_server_clock) {
    return m_clock.now();
  }
  TRY_ASSIGN(pg::Connection * connection, this->connection());
  TRY_ASSIGN(db::Statement * select, connection->cached(k_now_sql));
  TRY_ASSIGN(const bool has_row, select->step());
  if (!has_row) {
    return make_error(
        ErrorCode::store_error,
        fmt::format("postgresql store at \"{}\": the server gave no time", connection->describe()));
  }
  db::ResetGuard reset(*select);
  return select->get<std::int64_t>("now");
}

Result<void> PgEngine::announce_delivery(db::Connection& writer)
{
  auto* connection = dynamic_cast<pg::Connection*>(&writer);
  if (connection == nullptr) {
    return make_error(ErrorCode::store_error,
                      "postgresql store: a write on a connection that is not postgresql");
  }
  return connection->notify(k_delivery_channel, "");
}

Result<std::unique_ptr<mail::ChangeSignal>> PgEngine::change_signal()
{
  if (m_options.transaction_pooler) {
    return std::unique_ptr<mail::ChangeSignal>(std::make_unique<PollingSignal>());
  }
  TRY_ASSIGN(pg::Connection * connection, this->connection());
  TRY(connection->listen(k_delivery_channel));
  TRY_ASSIGN(const bool heard, notifications_reach(*connection));
  if (!heard) {
    return std::unique_ptr<mail::ChangeSignal>(std::make_unique<PollingSignal>());
  }
  return std::unique_ptr<mail::ChangeSignal>(std::make_unique<PgChangeSignal>(*this));
}

Result<bool> PgEngine::notifications_reach(pg::Connection& listener)
{
  // A private channel round trip: LISTEN here, NOTIFY from a second session, and see it arrive
  // within k_probe_wait. A pooler in session mode, or none, passes; one that hands each
  // transaction another server connection does not.
  const std::string channel = fmt::format("mailroom_probe_{}_{}", ::getpid(), listener.backend_pid());
  TRY(listener.listen(channel));
  {
    TRY_ASSIGN(pg::Connection other, pg::Connection::open(m_url, m_options));
    TRY(other.notify(channel, "probe"));
  }
  TRY_ASSIGN(const bool heard, listener.wait_for_notification(std::chrono::steady_clock::now() + k_probe_wait,
                                                              pg::OwnNotifications::count));
  (void)listener.execute_script(fmt::format("UNLISTEN \"{}\"", channel));
  return heard;
}

} // namespace mailroom::providers::postgres
