#include "connection_pool.hpp"

namespace mailroom::ops {

Result<std::unique_ptr<mail::Provider>> ConnectionPool::take()
{
  {
    std::lock_guard lock(m_mutex);
    if (!m_idle.empty()) {
      std::unique_ptr<mail::Provider> provider = std::move(m_idle.back());
      m_idle.pop_back();
      return provider;
    }
  }
  return m_open();
}

void ConnectionPool::give_back(std::unique_ptr<mail::Provider> provider)
{
  std::lock_guard lock(m_mutex);
  if (m_idle.size() < m_keep) {
    m_idle.push_back(std::move(provider));
  }
}

void ConnectionPool::renew()
{
  std::vector<std::unique_ptr<mail::Provider>> closing;
  std::lock_guard lock(m_mutex);
  ++m_generation;
  closing.swap(m_idle);
}

} // namespace mailroom::ops
