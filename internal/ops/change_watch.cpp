#include "change_watch.hpp"

#include "events.hpp"

namespace mailroom::ops {

ChangeWatch::ChangeWatch(ConnectionPool& pool, const SessionParts& parts, const config::Identity& me)
    : m_pool(pool), m_parts(parts), m_me(me)
{
}

ChangeWatch::~ChangeWatch() = default;

Result<void> ChangeWatch::open()
{
  close();
  TRY_ASSIGN(m_connection, m_pool.take());
  m_slot.emplace(*m_connection);
  m_session.emplace(Session{m_parts.config, m_parts.policy, m_parts.clock, m_me, m_parts.env, *m_slot});
  auto signal = change_signal(*m_session);
  if (!signal.ok()) {
    close();
    return signal.error();
  }
  m_signal = std::move(signal).value();
  return {};
}

void ChangeWatch::close()
{
  m_signal.reset();
  m_session.reset();
  m_slot.reset();
  m_connection.reset();
}

Result<mail::WakeReason> ChangeWatch::wait(std::chrono::steady_clock::time_point deadline, int interrupt_fd)
{
  if (!m_signal) {
    return make_error(ErrorCode::store_error, "the change watch holds no change signal");
  }
  return m_signal->wait(deadline, interrupt_fd);
}

} // namespace mailroom::ops
