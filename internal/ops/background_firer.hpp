#pragma once

// The firer a long-running server runs beside its work (`serve`; decisions "Firers"): a thread
// with its own store connection that fires due slots as firer `kind` (fire_until_stopped) until
// stopped. Its passes are silent; a failed pass is retried after the period.

#include <memory>
#include <thread>

#include "base/result.hpp"
#include "connection_pool.hpp"
#include "mail/schedules.hpp"
#include "session.hpp"

namespace mailroom::ops {

struct FirerContext {
  const config::Config& config;
  const mail::MailPolicy& policy;
  const mail::Clock& clock;
  const config::Identity& me;
  const util::Environment& env;
};

class BackgroundFirer {
public:
  BackgroundFirer(FirerContext context, ConnectionPool& connections, mail::FirerKind kind,
                  mail::Millis period = 5 * mail::k_second_ms);
  ~BackgroundFirer();
  BackgroundFirer(const BackgroundFirer&) = delete;
  BackgroundFirer& operator=(const BackgroundFirer&) = delete;

  // Starts the thread (nothing when the store has no schedules: the exec provider). Errors: the
  // store's when its connection cannot be opened.
  Result<void> start();
  // Ends the thread (a pass in progress finishes first).
  void stop();

private:
  void run();

  FirerContext m_context;
  ConnectionPool& m_connections;
  mail::FirerKind m_kind;
  mail::Millis m_period;
  std::unique_ptr<mail::Provider> m_provider;
  int m_stop[2] = {-1, -1};
  std::thread m_thread;
};

} // namespace mailroom::ops
