#include "background_firer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include "schedule_firing.hpp"

namespace mailroom::ops {

BackgroundFirer::BackgroundFirer(FirerContext context, ConnectionPool& connections, mail::FirerKind kind,
                                 mail::Millis period)
    : m_context(context), m_connections(connections), m_kind(kind), m_period(period)
{
}

BackgroundFirer::~BackgroundFirer()
{
  stop();
}

Result<void> BackgroundFirer::start()
{
  TRY_ASSIGN(m_provider, m_connections.take());
  if (m_provider->facets().schedules == nullptr) {
    return {};
  }
  if (::pipe2(m_stop, O_CLOEXEC) != 0) {
    return make_error(ErrorCode::store_error, "cannot make the firer's stop pipe");
  }
  m_thread = std::thread([this] { run(); });
  return {};
}

void BackgroundFirer::stop()
{
  if (m_thread.joinable()) {
    const char byte = 1;
    (void)::write(m_stop[1], &byte, 1);
    m_thread.join();
  }
  for (int& fd : m_stop) {
    if (fd >= 0) {
      ::close(fd);
      fd = -1;
    }
  }
}

void BackgroundFirer::run()
{
  ProviderSlot slot(*m_provider);
  Session session{m_context.config, m_context.policy, m_context.clock, m_context.me, m_context.env, slot};
  FireEvents events;
  events.pass = [](const FireResult& /*pass*/) -> Result<void> { return {}; };
  events.failed = [](const Error& /*error*/, mail::Millis /*wait*/) {};
  (void)fire_until_stopped(session, m_kind, mail::FireRequest{}, m_period, m_stop[0], events);
}

} // namespace mailroom::ops
