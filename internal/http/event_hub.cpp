#include "event_hub.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <vector>

#include "ops/events.hpp"
#include "ops/views.hpp"

namespace mailroom::http {

namespace {

using Clock = std::chrono::steady_clock;

} // namespace

EventHub::EventHub(ApiEnv& env, EventHubOptions options) : m_env(env), m_options(options) {}

EventHub::~EventHub()
{
  stop();
}

Result<void> EventHub::start()
{
  if (::pipe2(m_wake, O_NONBLOCK | O_CLOEXEC) != 0) {
    return make_error(ErrorCode::store_error, "cannot make the event stream's wake-up pipe");
  }
  TRY_ASSIGN(m_provider, m_env.connections.take());
  TRY_ASSIGN(m_signal, mail::change_signal(*m_provider));
  ops::ProviderSlot slot(*m_provider);
  ops::Session session{m_env.config, m_env.policy, m_env.clock, m_env.me, m_env.env, slot};
  TRY_ASSIGN(const ops::EventsResult now, ops::events(session, ops::EventsRequest{}));
  m_newest = now.last_seq;
  TRY_ASSIGN(const ops::TeamResult team, ops::team(session, ops::TeamRequest{}));
  m_peers.update(team.team.mailboxes);
  m_thread = std::thread([this]() { run(); });
  return {};
}

void EventHub::stop()
{
  {
    std::lock_guard lock(m_mutex);
    m_stopping = true;
    m_streams.clear();
  }
  wake();
  if (m_thread.joinable()) {
    m_thread.join();
  }
  for (int& fd : m_wake) {
    if (fd >= 0) {
      ::close(fd);
      fd = -1;
    }
  }
}

std::optional<std::uint64_t> EventHub::subscribe(std::optional<std::int64_t> after, Sink sink)
{
  std::uint64_t id = 0;
  {
    std::lock_guard lock(m_mutex);
    if (m_stopping || m_streams.size() >= m_options.max_streams) {
      return std::nullopt;
    }
    id = m_next_id++;
    m_streams.emplace(id, Stream{after.value_or(m_newest), std::move(sink)});
  }
  wake(); // a resumed stream catches up at once
  return id;
}

void EventHub::unsubscribe(std::uint64_t id)
{
  std::lock_guard lock(m_mutex);
  m_streams.erase(id);
}

void EventHub::wake()
{
  if (m_wake[1] >= 0) {
    const char byte = 1;
    [[maybe_unused]] const ssize_t written = ::write(m_wake[1], &byte, 1); // full pipe: already awake
  }
}

void EventHub::deliver_all(const std::string& text)
{
  std::lock_guard lock(m_mutex);
  for (auto& [id, stream] : m_streams) {
    stream.sink(text);
  }
}

void EventHub::deliver_events(ops::Session& session)
{
  // Streams at the same position share one read. A position far behind reads a page per pass, so
  // a long catch-up never holds the others back.
  std::map<std::int64_t, std::vector<std::uint64_t>> positions;
  {
    std::lock_guard lock(m_mutex);
    for (const auto& [id, stream] : m_streams) {
      positions[stream.after].push_back(id);
    }
  }
  bool more = false;
  for (const auto& [after, ids] : positions) {
    ops::EventsRequest request;
    request.after_seq = after;
    request.limit = m_options.page;
    auto read = ops::events(session, request);
    if (!read.ok()) {
      return; // the store is away: the next wake-up reads again from the same positions
    }
    std::string text;
    if (read->reset) {
      text += sse_reset(read->oldest_kept);
    }
    for (const mail::Event& event : read->events) {
      text += sse_event(event.seq, mail::to_string(event.type), ops::to_json(event));
    }
    more = more || read->events.size() >= m_options.page;
    std::lock_guard lock(m_mutex);
    m_newest = std::max(m_newest, read->last_seq);
    for (const std::uint64_t id : ids) {
      const auto it = m_streams.find(id);
      if (it == m_streams.end() || it->second.after != after) {
        continue;
      }
      it->second.after = read->last_seq;
      if (!text.empty()) {
        it->second.sink(text);
      }
    }
  }
  if (more) {
    wake();
  }
}

void EventHub::deliver_peer_states(ops::Session& session)
{
  auto team = ops::team(session, ops::TeamRequest{});
  if (!team.ok()) {
    return;
  }
  std::string text;
  for (const PeerStates::Change& change : m_peers.update(team->team.mailboxes)) {
    text += sse_peer_state(change, team->now);
  }
  if (!text.empty()) {
    deliver_all(text);
  }
}

void EventHub::run()
{
  ops::ProviderSlot slot(*m_provider);
  ops::Session session{m_env.config, m_env.policy, m_env.clock, m_env.me, m_env.env, slot};
  Clock::time_point next_heartbeat = Clock::now() + m_options.heartbeat;
  Clock::time_point next_peers = Clock::now() + m_options.peer_period;
  while (true) {
    {
      std::lock_guard lock(m_mutex);
      if (m_stopping) {
        return;
      }
    }
    const Clock::time_point deadline = std::min(next_heartbeat, next_peers);
    if (m_signal) {
      (void)m_signal->wait(deadline, m_wake[0]);
    } else {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      pollfd fd{m_wake[0], POLLIN, 0};
      ::poll(&fd, 1, static_cast<int>(std::clamp<std::int64_t>(left.count(), 0, 1000)));
    }
    char drain[64];
    while (::read(m_wake[0], drain, sizeof drain) > 0) {
    }
    deliver_events(session);
    const Clock::time_point now = Clock::now();
    if (now >= next_peers) {
      deliver_peer_states(session);
      next_peers = now + m_options.peer_period;
    }
    if (now >= next_heartbeat) {
      deliver_all(sse_heartbeat());
      next_heartbeat = now + m_options.heartbeat;
    }
  }
}

} // namespace mailroom::http
