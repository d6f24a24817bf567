#pragma once

// The live side of GET /api/v1/events: one thread that wakes on the store's change signal (LISTEN
// on PostgreSQL, the change signal on SQLite), reads the new events from the events table through
// ops::events (a short read transaction each time, never held across a wait), and hands each
// stream its text; every peer_state_period it recomputes the team's states (ops::team) and sends
// `peer.state` for each change; every 15 s a heartbeat. Streams at the same position share one
// read. No network here: a stream is a Sink the server gives (it must not block).
//
// When the store stops answering (a PostgreSQL server down, a SQLite store deleted or replaced
// under the server), every stream gets `event: store` with {"ok":false,"error":{…}} (a new stream
// at once), so a page never shows a quiet stream as an all-clear; the hub tries again with backoff
// (from 0.5 s, at most every 5 s) on a fresh connection, and says {"ok":true} when the store
// answers. A replaced store also renews the request connections (ConnectionPool::renew) and gives
// every stream one `event: reset`: the seqs it had are another store's.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "api.hpp"
#include "ops/change_watch.hpp"
#include "ops/session.hpp"
#include "server.hpp"
#include "sse.hpp"

namespace mailroom::http {

struct EventHubOptions {
  std::size_t max_streams = 64;
  std::chrono::milliseconds heartbeat{15000};
  std::chrono::milliseconds peer_period{10000};
  std::size_t page = 500; // events read at once for one position
};

class EventHub final : public StreamSource {
public:
  EventHub(ApiEnv& env, EventHubOptions options);
  ~EventHub() override;
  EventHub(const EventHub&) = delete;
  EventHub& operator=(const EventHub&) = delete;

  // Opens the hub's own store connection and change signal, learns the newest seq and the team's
  // states, and starts the thread. Errors: the store's (unsupported without an events table).
  Result<void> start();
  // Ends the thread; the streams get nothing more.
  void stop();

  std::optional<std::uint64_t> subscribe(std::optional<std::int64_t> after, Sink sink) override;
  void unsubscribe(std::uint64_t id) override;

private:
  struct Stream {
    std::int64_t after = 0;
    Sink sink;
  };
  void run();
  void wake();
  Result<void> deliver_events(ops::Session& session);
  void deliver_peer_states(ops::Session& session);
  void deliver_all(const std::string& text);
  // The store failed with `error`: tell the streams (once per outage) and plan a retry.
  void went_down(const Error& error);
  // A fresh connection and signal, and the newest seq: true when the store answers again.
  bool try_again();

  ApiEnv& m_env;
  EventHubOptions m_options;
  ops::ChangeWatch m_watch; // the hub's own pooled connection and change signal
  int m_wake[2] = {-1, -1};
  std::mutex m_mutex;
  std::map<std::uint64_t, Stream> m_streams; // under m_mutex
  std::uint64_t m_next_id = 1;               // under m_mutex
  std::int64_t m_newest = 0;                 // under m_mutex: the last seq read
  bool m_stopping = false;                   // under m_mutex
  std::optional<Error> m_down;               // under m_mutex: why the store does not answer
  bool m_replaced = false;                   // the outage is a replaced store
  std::chrono::steady_clock::time_point m_retry_at{};
  mail::Millis m_backoff_ms = 0;
  PeerStates m_peers;
  std::thread m_thread;
};

} // namespace mailroom::http
