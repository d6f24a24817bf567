#include "postgres/engine.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstring>

#include <fmt/format.h>
#include <libpq-fe.h>
#include <poll.h>

namespace mailroom::providers::postgres {

namespace {

// Milliseconds since the epoch by the server's clock (clock_timestamp(), not the transaction's
// start: a long transaction must not see time stand still).
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

} // namespace

PgEngine::PgEngine(pg::Connection connection, std::string url, pg::OpenOptions options,
                   const mail::Clock& clock)
    : m_connection(std::move(connection)), m_url(std::move(url)), m_options(options), m_clock(clock),
      m_server_clock(dynamic_cast<const mail::SystemClock*>(&clock) != nullptr)
{
}

Result<pg::Connection*> PgEngine::connection()
{
  if (!m_connection || PQstatus(m_connection->handle()) == CONNECTION_BAD) {
    m_connection.reset();
    TRY_ASSIGN(pg::Connection fresh, pg::Connection::open(m_url, m_options));
    m_connection.emplace(std::move(fresh));
    ++m_generation;
  }
  return &*m_connection;
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
  TRY_ASSIGN(pg::Connection * connection, this->connection());
  TRY(connection->listen(k_delivery_channel));
  return std::unique_ptr<mail::ChangeSignal>(std::make_unique<PgChangeSignal>(*this));
}

} // namespace mailroom::providers::postgres
