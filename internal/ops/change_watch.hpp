#pragma once

// A server's watcher connection (the MCP subscriptions' watcher thread, `serve`'s event hub): a
// pooled connection of its own, held across waits, with the store's change signal armed on it
// (ops::change_signal) and a session to read ops::events on. Used by one thread only.

#include <chrono>
#include <memory>
#include <optional>

#include "base/result.hpp"
#include "mail/signal.hpp"
#include "pooled_session.hpp"

namespace mailroom::ops {

class ChangeWatch {
public:
  ChangeWatch(ConnectionPool& pool, const SessionParts& parts, const config::Identity& me);
  ~ChangeWatch();
  ChangeWatch(const ChangeWatch&) = delete;
  ChangeWatch& operator=(const ChangeWatch&) = delete;

  // Forgets any connection held, takes a fresh one and arms the store's change signal on it (a
  // store without one has none: signalled() is false); the caller reads the newest seq through
  // session() next, so nothing committed after that read is missed. Errors: the pool's, the
  // signal's (the watch then holds nothing).
  Result<void> open();
  // Forgets the connection and its signal (after a store failure: it may be unusable).
  void close();
  // True between a successful open() and close().
  bool ready() const { return m_session.has_value(); }
  // True when ready() and the store has a change signal.
  bool signalled() const { return m_signal != nullptr; }
  // Sleeps until the store may have changed, `deadline`, or `interrupt_fd` is readable (see
  // mail::ChangeSignal::wait). Requires signalled(). Errors: the signal's.
  Result<mail::WakeReason> wait(std::chrono::steady_clock::time_point deadline, int interrupt_fd);
  // A session on the held connection, acting as `me`, recording no presence. Requires ready().
  Session& session() { return *m_session; }

private:
  ConnectionPool& m_pool;
  SessionParts m_parts;
  const config::Identity& m_me;
  std::unique_ptr<mail::Provider> m_connection;
  std::unique_ptr<mail::ChangeSignal> m_signal;
  std::optional<ProviderSlot> m_slot;
  std::optional<Session> m_session;
};

} // namespace mailroom::ops
