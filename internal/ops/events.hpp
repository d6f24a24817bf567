#pragma once

// events: the store's change log after a seq (contract "Live events"), for the HTTP API's event
// stream. The stream itself (ids, heartbeats, peer.state, waking on Provider::change_signal) is
// the server's; this operation only reads one page of the table. Store-wide: no mailbox filter,
// no presence recorded.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "mail/events.hpp"
#include "mail/signal.hpp"
#include "session.hpp"

namespace mailroom::ops {

struct EventsRequest {
  // The last seq the caller saw (the stream's Last-Event-ID). nullopt: from now on (no events
  // are returned; result.last_seq is where to continue).
  std::optional<std::int64_t> after_seq;
  std::size_t limit = 100; // at most mail::k_max_events_page
};

struct EventsResult {
  std::vector<mail::Event> events; // seq > after_seq, oldest first
  // True when after_seq is older than the oldest kept event: events were pruned before the caller
  // saw them (the stream's one `event: reset`); `events` then starts at the oldest kept. Also true
  // when after_seq is past the newest seq (never this store's): `events` is then empty and
  // last_seq the newest.
  bool reset = false;
  std::int64_t oldest_kept = 1; // the smallest seq the store may still hold
  // Where to continue: the last event's seq, else after_seq (or the newest seq, from now on).
  std::int64_t last_seq = 0;
};

// Errors: usage (a negative after_seq, a zero limit), unsupported (the exec provider), the
// store's errors.
Result<EventsResult> events(Session& session, const EventsRequest& request);

// The store's change signal, armed now (nullptr for a store without one: poll), for a server
// that reads the events again whenever the store may have changed. Errors: the store's.
Result<std::unique_ptr<mail::ChangeSignal>> change_signal(Session& session);

// One event: {"seq","at","type","id","mailbox","actor"} (the stream's `data:`).
nlohmann::json to_json(const mail::Event& event);
// {"schema_version":1,"events":[…],"reset","oldest_kept","last_seq"}
nlohmann::json to_json(const EventsResult& result);
nlohmann::json event_output_schema();
nlohmann::json events_output_schema();

} // namespace mailroom::ops
