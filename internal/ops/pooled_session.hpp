#pragma once

// A server's session on a pooled store connection (the MCP server's tool calls, `serve`'s
// requests): each call takes a connection no other call is using, runs its operations on an
// ops::Session of its own, and gives the connection back when it ends well. The surfaces reach the
// store only through this and the operations (scripts/check-layering.sh).

#include <cstdint>
#include <memory>

#include "base/result.hpp"
#include "config/config.hpp"
#include "config/discovery.hpp"
#include "connection_pool.hpp"
#include "mail/clock.hpp"
#include "mail/policy.hpp"
#include "session.hpp"
#include "util/environment.hpp"

namespace mailroom::ops {

// What every session of a server shares, fixed when it starts.
struct SessionParts {
  const config::Config& config;
  const mail::MailPolicy& policy;
  const mail::Clock& clock;
  const util::Environment& env; // ops::ServerEnvironment: masked as every server's
};

class PooledSession {
public:
  PooledSession(ConnectionPool& pool, const SessionParts& parts, const config::Identity& me);
  // A connection not given back by finish() is closed.
  ~PooledSession();
  PooledSession(const PooledSession&) = delete;
  PooledSession& operator=(const PooledSession&) = delete;

  // Takes an idle connection, or opens one. Errors: the pool's open errors.
  Result<void> open();
  // The session on the connection, acting as `me`: valid from open() until finish(). Before
  // open() it is a session without a store (its provider() fails), for what needs none (whoami).
  Session& session() { return m_session; }
  // Ends the call: the connection goes back to the pool when `sound` (the call succeeded, or
  // failed with an error ConnectionPool::reusable_after accepts) and the pool was not renewed
  // since open(); otherwise it is closed.
  void finish(bool sound);

private:
  ConnectionPool& m_pool;
  std::uint64_t m_generation = 0;
  std::unique_ptr<mail::Provider> m_connection;
  ProviderSlot m_slot;
  Session m_session;
};

} // namespace mailroom::ops
