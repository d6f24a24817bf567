#pragma once

// The store side of the subscriptions' watcher thread (subscriptions.hpp): one pooled connection
// of its own with the store's change signal armed on it (ops::ChangeWatch, as `serve`'s event hub
// has) and the last event seq read (ops::events). Used by that one thread only.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "base/result.hpp"
#include "mail/events.hpp"
#include "mcp/tools.hpp"
#include "ops/change_watch.hpp"

namespace mailroom::mcp {

// How often a store without a change signal is read again.
inline constexpr std::chrono::milliseconds k_poll_period{2000};

class Watcher {
public:
  explicit Watcher(const ToolEnv& env);

  // True once open() succeeded and no failure dropped the connection since.
  bool ready() const { return m_watch.ready(); }
  // Takes a connection, arms the change signal and learns the newest event seq (a store without
  // an event log, the exec provider, is read whole on each wake instead). Errors: the store's.
  Result<void> open();
  // Forgets the connection after `error`; when the store was replaced under the server, the
  // pool's idle connections are renewed too (they read the old file).
  void drop(const Error& error);
  // Sleeps until the store may have changed (true), `deadline` or `interrupt_fd` is readable
  // (false). Without a signal (or not ready) it wakes every k_poll_period and says true (a store
  // not ready says false). Errors: the signal's.
  Result<bool> wait(std::chrono::steady_clock::time_point deadline, int interrupt_fd);
  // The events committed since the last call (oldest first), or nullopt when anything may have
  // changed: a store without events, events pruned before they were read, a replaced store, or
  // more than a bounded number of pages at once. Errors: the store's.
  Result<std::optional<std::vector<mail::Event>>> changes();

private:
  const ToolEnv& m_env;
  ops::ChangeWatch m_watch;
  bool m_events = false;    // the store keeps an event log
  std::int64_t m_after = 0; // the last seq read
  std::chrono::steady_clock::time_point m_next_poll{};
};

} // namespace mailroom::mcp
