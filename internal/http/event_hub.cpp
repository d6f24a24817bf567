#include "event_hub.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <vector>

#include "mail/retry.hpp"
#include "ops/events.hpp"
#include "ops/views.hpp"

namespace mailroom::http {

namespace {

using Clock = std::chrono::steady_clock;

// How long the hub waits before it asks a store that failed again: mail::next_store_retry's
// backoff, at most this, so a page learns of a store that is back within seconds.
constexpr mail::Millis k_max_retry_ms = 5000;

} // namespace

EventHub::EventHub(ApiEnv& env, EventHubOptions options)
    : m_env(env), m_options(options),
      m_watch(env.connections, ops::SessionParts{env.config, env.policy, env.clock, env.env}, env.me)
{
}

EventHub::~EventHub()
{
  stop();
}

Result<void> EventHub::start()
{
  if (::pipe2(m_wake, O_NONBLOCK | O_CLOEXEC) != 0) {
    return make_error(ErrorCode::store_error, "cannot make the event stream's wake-up pipe");
  }
  // Armed before the newest seq is read, so nothing committed after that read is missed.
  TRY(m_watch.open());
  ops::Session& session = m_watch.session();
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
    if (m_down) {
      sink(sse_store(&*m_down)); // a stream opened during an outage learns of it at once
    }
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

Result<void> EventHub::deliver_events(ops::Session& session)
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
    TRY_ASSIGN(const ops::EventsResult read, ops::events(session, request));
    std::string text;
    if (read.reset) {
      text += sse_reset(read.oldest_kept);
    }
    for (const mail::Event& event : read.events) {
      text += sse_event(event.seq, mail::to_string(event.type), ops::to_json(event));
    }
    more = more || read.events.size() >= m_options.page;
    std::lock_guard lock(m_mutex);
    m_newest = std::max(m_newest, read.last_seq);
    for (const std::uint64_t id : ids) {
      const auto it = m_streams.find(id);
      if (it == m_streams.end() || it->second.after != after) {
        continue;
      }
      it->second.after = read.last_seq;
      if (!text.empty()) {
        it->second.sink(text);
      }
    }
  }
  if (more) {
    wake();
  }
  return {};
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

void EventHub::went_down(const Error& error)
{
  m_replaced = m_replaced || !mail::store_may_recover(error);
  if (m_replaced) {
    m_env.connections.renew(); // the request connections read the old file too
  }
  m_backoff_ms = std::min(mail::next_store_retry(m_backoff_ms), k_max_retry_ms);
  m_retry_at = Clock::now() + std::chrono::milliseconds(m_backoff_ms);
  std::lock_guard lock(m_mutex);
  if (!m_down) {
    m_down = error;
    const std::string text = sse_store(&error);
    for (auto& [id, stream] : m_streams) {
      stream.sink(text);
    }
  }
}

bool EventHub::try_again()
{
  if (auto opened = m_watch.open(); !opened.ok()) {
    went_down(opened.error());
    return false;
  }
  auto now = ops::events(m_watch.session(), ops::EventsRequest{});
  if (!now.ok()) {
    m_watch.close();
    went_down(now.error());
    return false;
  }
  const std::string back = sse_store(nullptr);
  std::lock_guard lock(m_mutex);
  for (auto& [id, stream] : m_streams) {
    if (m_replaced) {
      // Another store is at the path: the seqs each stream had are not its seqs.
      stream.sink(back + sse_reset(now->oldest_kept));
      stream.after = now->last_seq;
    } else {
      stream.sink(back);
    }
  }
  m_newest = m_replaced ? now->last_seq : std::max(m_newest, now->last_seq);
  m_down.reset();
  m_replaced = false;
  m_backoff_ms = 0;
  return true;
}

void EventHub::run()
{
  Clock::time_point next_heartbeat = Clock::now() + m_options.heartbeat;
  Clock::time_point next_peers = Clock::now() + m_options.peer_period;
  while (true) {
    bool down = false;
    {
      std::lock_guard lock(m_mutex);
      if (m_stopping) {
        return;
      }
      down = m_down.has_value();
    }
    Clock::time_point deadline = std::min(next_heartbeat, next_peers);
    Result<mail::WakeReason> woke = mail::WakeReason::timeout;
    if (down) {
      deadline = std::min(deadline, m_retry_at);
    }
    if (m_watch.signalled() && !down) {
      woke = m_watch.wait(deadline, m_wake[0]);
    } else {
      // No signal (or a store that is away, whose signal may fail at once): the wake-up pipe, at
      // most a second at a time.
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      pollfd fd{m_wake[0], POLLIN, 0};
      ::poll(&fd, 1, static_cast<int>(std::clamp<std::int64_t>(left.count(), 0, 1000)));
    }
    char drain[64];
    while (::read(m_wake[0], drain, sizeof drain) > 0) {
    }
    if (Clock::now() >= next_heartbeat) {
      deliver_all(sse_heartbeat());
      next_heartbeat = Clock::now() + m_options.heartbeat;
    }
    if (down && (Clock::now() < m_retry_at || !try_again())) {
      continue;
    }
    if (!woke.ok()) {
      went_down(woke.error());
      continue;
    }
    ops::Session& session = m_watch.session();
    if (auto read = deliver_events(session); !read.ok()) {
      went_down(read.error());
      continue;
    }
    if (Clock::now() >= next_peers) {
      deliver_peer_states(session);
      next_peers = Clock::now() + m_options.peer_period;
    }
  }
}

} // namespace mailroom::http
