#pragma once

// The event log facet: the live event log of every change (mail/events.hpp has the types; what
// writes which event and the retention: docs/store.md, "Events").

#include <cstddef>
#include <cstdint>

#include "base/result.hpp"
#include "mail/events.hpp"

namespace mailroom::mail {

class EventLog {
public:
  // At most `limit` events (capped at k_max_events_page) with a seq above `after_seq`, oldest
  // first, and the oldest seq still kept. Every event returned was committed, and no event with
  // a smaller seq can still appear: a reader that asks again after the last seq it saw misses
  // nothing (PostgreSQL: seqs are allocated in commit order). Changes nothing; waits on the
  // Signals facet, never inside a transaction.
  virtual Result<EventsPage> events(std::int64_t after_seq, std::size_t limit) = 0;
  // Deletes the events `retention` no longer keeps (older than max_age_ms by the store's clock,
  // or beyond the newest max_rows), oldest first, in one transaction; returns how many. sweep and
  // purge run it with the default retention.
  virtual Result<std::int64_t> prune_events(const EventRetention& retention) = 0;

protected:
  ~EventLog() = default; // a facet is reached through Provider::facets(), never owned
};

} // namespace mailroom::mail
