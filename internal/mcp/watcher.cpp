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

Watcher::Watcher(const ToolEnv& env)
    : m_env(env), m_watch(*env.connections,
                          ops::SessionParts{*env.config, *env.policy, *env.clock, *env.environment}, env.me)
{
}

Result<void> Watcher::open()
{
  // Armed before the newest seq is read, so nothing committed after that read is missed.
  TRY(m_watch.open());
  auto now = ops::events(m_watch.session(), ops::EventsRequest{});
  if (!now.ok() && now.error().code != ErrorCode::unsupported) {
    m_watch.close();
    return now.error();
  }
  m_events = now.ok();
  m_after = now.ok() ? now->last_seq : 0;
  m_next_poll = Clock::now() + k_poll_period;
  return {};
}

void Watcher::drop(const Error& error)
{
  m_watch.close();
  if (!mail::store_may_recover(error)) {
    m_env.connections->renew(); // another file is at the store's path now
  }
}

Result<bool> Watcher::wait(Clock::time_point deadline, int interrupt_fd)
{
  if (m_watch.signalled()) {
    TRY_ASSIGN(const mail::WakeReason why, m_watch.wait(deadline, interrupt_fd));
    return why == mail::WakeReason::changed;
  }
  const bool polling = m_watch.ready();
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
  if (!m_watch.ready()) {
    return std::optional<std::vector<mail::Event>>();
  }
  if (!m_events) {
    return std::optional<std::vector<mail::Event>>(); // no event log: read every resource again
  }
  ops::Session& session = m_watch.session();
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
