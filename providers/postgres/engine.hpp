#pragma once

// The PostgreSQL engine of the SQL store: one pg::Connection for reads and writes, the server's
// clock, and LISTEN/NOTIFY for waking waiters on any host.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "base/result.hpp"
#include "mail/clock.hpp"
#include "mail/settings.hpp"
#include "pg/connection.hpp"
#include "sqlstore/engine.hpp"

namespace mailroom::providers::postgres {

// The channel every delivery is announced on (NOTIFY, sent when the delivering transaction commits).
inline constexpr std::string_view k_delivery_channel = "mailroom_delivery";

class PgEngine final : public sqlstore::Engine {
public:
  // An engine on an open connection to `url`. `clock` is used for now() unless it is a
  // mail::SystemClock: a production store takes "now" from the server (one clock for every host);
  // a test that injects its own clock gets that one.
  PgEngine(pg::Connection connection, std::string url, pg::OpenOptions options, const mail::Clock& clock);

  // Reads and writes share the one connection. When it was lost (the server restarted, the
  // network dropped), the next call opens a new one; a failed reconnect is the error.
  Result<db::Connection*> reader() override;
  Result<db::Connection*> writer() override;
  // The server's clock_timestamp() in milliseconds, or the injected clock.
  Result<mail::UnixMillis> now() override;
  // NOTIFY on k_delivery_channel inside the write transaction (delivered at commit, dropped on
  // rollback, merged with the transaction's other notifications).
  Result<void> announce_delivery(db::Connection& writer) override;
  // LISTEN on k_delivery_channel (at once: no transaction is open), then a signal that waits for
  // a notification from another session or the interrupt fd. Behind a transaction pooler, or when
  // a private LISTEN/NOTIFY round trip does not arrive within 1 s, a signal that polls every 2 s
  // instead (its degraded() says so: warning no_listen). After a reconnect the signal listens
  // again on the new connection and reports `changed` (the state must be read again anyway).
  Result<std::unique_ptr<mail::ChangeSignal>> change_signal() override;
  std::string_view name() const override { return "postgresql store"; }

  // The live connection (reconnecting if it was lost), for the signal and tests.
  Result<pg::Connection*> connection();
  // Bumped every time a new connection replaces a lost one.
  std::uint64_t generation() const { return m_generation; }
  // True when now() comes from the server.
  bool server_clock() const { return m_server_clock; }

private:
  // Whether a NOTIFY from another session reaches `listener` (a private channel round trip).
  Result<bool> notifications_reach(pg::Connection& listener);
  static void end_lost_session(pg::Connection& connection, int pid, std::chrono::milliseconds timeout);

  std::optional<pg::Connection> m_connection;
  int m_lost_pid = 0; // the live connection's server pid (0: behind a pooler), ended if it is lost
  std::string m_url;
  pg::OpenOptions m_options;
  const mail::Clock& m_clock;
  bool m_server_clock;
  std::uint64_t m_generation = 0;
};

} // namespace mailroom::providers::postgres
