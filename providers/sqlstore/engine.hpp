#pragma once

// What a SQL store needs from its engine beyond SQL text: connections, the clock that decides,
// change notification. providers/beads (SQLite) and providers/postgres implement it.

#include <memory>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "db/connection.hpp"
#include "mail/message.hpp"
#include "mail/signal.hpp"

namespace mailroom::providers::sqlstore {

class Engine {
public:
  virtual ~Engine() = default;

  // The connection reads run on (for SQLite, a read-only one when the command only reads).
  // Errors: store_error, timeout.
  virtual Result<db::Connection*> reader() = 0;
  // The connection writes run on, opened on first use when reads run elsewhere.
  virtual Result<db::Connection*> writer() = 0;

  // Now, by the clock that decides leases, expiry, staleness and due redeliveries (SQLite: the
  // injected clock; PostgreSQL: the server's unless a test clock was injected).
  virtual Result<mail::UnixMillis> now() = 0;

  // Called inside a write transaction that delivered mail, before COMMIT (PostgreSQL: NOTIFY, which
  // is sent at commit). Errors: store errors.
  virtual Result<void> announce_delivery(db::Connection& /*writer*/) { return {}; }

  // A change signal armed now (see mail/signal.hpp).
  virtual Result<std::unique_ptr<mail::ChangeSignal>> change_signal() = 0;

  // "bead store" or "postgresql store", for messages.
  virtual std::string_view name() const = 0;
};

} // namespace mailroom::providers::sqlstore
