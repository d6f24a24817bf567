#include "pooled_session.hpp"

namespace mailroom::ops {

PooledSession::PooledSession(ConnectionPool& pool, const SessionParts& parts, const config::Identity& me)
    : m_pool(pool), m_slot([this]() -> Result<mail::Provider*> {
        if (!m_connection) {
          return make_error(ErrorCode::store_error, "no pooled connection taken");
        }
        return m_connection.get();
      }),
      m_session{parts.config, parts.policy, parts.clock, me, parts.env, m_slot}
{
}

PooledSession::~PooledSession() = default;

Result<void> PooledSession::open()
{
  m_generation = m_pool.generation();
  TRY_ASSIGN(m_connection, m_pool.take());
  return {};
}

void PooledSession::finish(bool sound)
{
  if (m_connection && sound && m_generation == m_pool.generation()) {
    m_pool.give_back(std::move(m_connection));
  }
  m_connection.reset();
}

} // namespace mailroom::ops
