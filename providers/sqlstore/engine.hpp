#pragma once

// What a SQL store needs from its engine beyond SQL text: connections, the clock that decides,
// change notification. providers/beads (SQLite) and providers/postgres implement it.

#include <cstdint>
#include <memory>
#include <optional>
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

  // An engine's own record of who may see a message, for search (the bead store's visibility
  // bits, providers/beads/visibility.hpp); an engine without one decides from the deliveries.
  // mark_visible runs in the write transaction that stores a message (for its sender) or a
  // delivery (for its recipient); forget_visible in purge's, before message `seq`'s rows are
  // deleted. Errors: store errors.
  virtual Result<void> mark_visible(db::Connection& /*writer*/, const std::string& /*who*/,
                                    std::int64_t /*seq*/)
  {
    return {};
  }
  virtual Result<void> forget_visible(db::Connection& /*writer*/, std::int64_t /*seq*/) { return {}; }
  // A statement for a search with no filter (?1 viewer, ?14 match -> seq, score, as
  // ListQueries::search_hits) that tells who may see a match from the record above; nullopt:
  // search_hits serves every search.
  virtual std::optional<std::string_view> unfiltered_search() const { return std::nullopt; }

  // A change signal armed now (see mail/signal.hpp).
  virtual Result<std::unique_ptr<mail::ChangeSignal>> change_signal() = 0;

  // "bead store" or "postgresql store", for messages.
  virtual std::string_view name() const = 0;
};

} // namespace mailroom::providers::sqlstore
