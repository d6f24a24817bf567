#include "mcp/watcher.hpp"

#include <poll.h>

#include <algorithm>

#include "mail/retry.hpp"
#include "ops/events.hpp"

namespace mailroom::mcp {

namespace {

using Clock = std::chrono::steady_clock;

// Events read at once, and the pages read in one call before the watcher reads every resource
// again instead (a burst that large changes most of them anyway).
constexpr std::size_t k_page = 500;
constexpr int k_max_pages = 8;

} // namespace

Result<void> Watcher::open()
{
  TRY_ASSIGN(std::unique_ptr<mail::Provider> connection, m_env.connections->take());
  ops::ProviderSlot slot(*connection);
  ops::Session session{*m_env.config, *m_env.policy, *m_env.clock, m_env.me, *m_env.environment, slot};
  // Armed before the newest seq is read, so nothing committed after that read is missed.
  TRY_ASSIGN(std::unique_ptr<mail::ChangeSignal> signal, ops::change_signal(session));
  auto now = ops::events(session, ops::EventsRequest{});
  if (!now.ok() && now.error().code != ErrorCode::unsupported) {
    return now.error();
  }
  m_events = now.ok();
  m_after = now.ok() ? now->last_seq : 0;
  m_signal = std::move(signal);
  m_connection = std::move(connection);
  m_next_poll = Clock::now() + k_poll_period;
  return {};
}

void Watcher::drop(const Error& error)
{
  m_signal.reset();
  m_connection.reset();
  if (!mail::store_may_recover(error)) {
    m_env.connections->renew(); // another file is at the store's path now
  }
}

Result<bool> Watcher::wait(Clock::time_point deadline, int interrupt_fd)
{
  if (m_signal && m_connection) {
    TRY_ASSIGN(const mail::WakeReason why, m_signal->wait(deadline, interrupt_fd));
    return why == mail::WakeReason::changed;
  }
  const bool polling = m_connection != nullptr;
  const Clock::time_point until = polling ? std::min(deadline, m_next_poll) : deadline;
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(until - Clock::now()).count();
  pollfd fd{interrupt_fd, POLLIN, 0};
  ::poll(&fd, interrupt_fd >= 0 ? 1 : 0, static_cast<int>(std::clamp<long long>(left, 0, 3600LL * 1000)));
  if (polling && Clock::now() >= m_next_poll) {
    m_next_poll = Clock::now() + k_poll_period;
    return true;
  }
  return false;
}

Result<std::optional<std::vector<mail::Event>>> Watcher::changes()
{
  if (!m_connection) {
    return std::optional<std::vector<mail::Event>>();
  }
  if (!m_events) {
    return std::optional<std::vector<mail::Event>>(); // no event log: read every resource again
  }
  ops::ProviderSlot slot(*m_connection);
  ops::Session session{*m_env.config, *m_env.policy, *m_env.clock, m_env.me, *m_env.environment, slot};
  std::vector<mail::Event> events;
  for (int page = 0; page < k_max_pages; ++page) {
    ops::EventsRequest request;
    request.after_seq = m_after;
    request.limit = k_page;
    TRY_ASSIGN(ops::EventsResult read, ops::events(session, request));
    m_after = read.last_seq;
    if (read.reset) {
      return std::optional<std::vector<mail::Event>>(); // events were missed
    }
    const bool more = read.events.size() >= k_page;
    std::move(read.events.begin(), read.events.end(), std::back_inserter(events));
    if (!more) {
      return std::optional<std::vector<mail::Event>>(std::move(events));
    }
  }
  return std::optional<std::vector<mail::Event>>(); // a burst: read every resource again
}

} // namespace mailroom::mcp
