#include "mcp/subscriptions.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "mail/retry.hpp"
#include "mcp/watcher.hpp"

namespace mailroom::mcp {

namespace {

using Clock = std::chrono::steady_clock;

// A store that failed is asked again after mail::next_store_retry's backoff, at most this.
constexpr mail::Millis k_max_retry_ms = 5000;
// How long the watcher sleeps on the change signal when nothing else is due (the signal wakes it
// at a change; this only bounds one wait).
constexpr std::chrono::seconds k_idle_wait{60};

} // namespace

Subscriptions::Subscriptions(const ToolEnv& env, SubscriptionLimits limits) : m_env(env), m_limits(limits) {}

Subscriptions::~Subscriptions()
{
  stop(std::chrono::hours(1));
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

void Subscriptions::attach(Write write)
{
  std::lock_guard lock(m_mutex);
  m_write = std::move(write);
}

Result<void> Subscriptions::subscribe(const std::string& uri, const ResourceRef& ref,
                                      const ResourceRead& read)
{
  {
    std::lock_guard lock(m_mutex);
    auto it = m_watched.find(uri);
    if (it == m_watched.end()) {
      if (m_watched.size() >= m_limits.max_resources) {
        return make_error(ErrorCode::usage, fmt::format("at most {} resources may be subscribed at once",
                                                        m_limits.max_resources));
      }
      it = m_watched
               .emplace(uri, Watched{ref,
                                     watched_view(ref, m_env.me.name, read.structured),
                                     read_digest(read),
                                     false,
                                     {},
                                     false})
               .first;
    }
    it->second.legacy = true;
    // Read again once registered: a change between the caller's read and now is heard.
    it->second.recheck = true;
    start_locked();
  }
  wake();
  return {};
}

void Subscriptions::unsubscribe(const std::string& uri)
{
  std::lock_guard lock(m_mutex);
  const auto it = m_watched.find(uri);
  if (it != m_watched.end()) {
    it->second.legacy = false;
    release_locked(uri);
  }
}

Result<void> Subscriptions::listen(const json& id, std::vector<std::string> uris)
{
  {
    std::lock_guard lock(m_mutex);
    if (m_listens.size() >= m_limits.max_listens) {
      return make_error(
          ErrorCode::usage,
          fmt::format("at most {} subscriptions/listen requests may be open at once", m_limits.max_listens));
    }
    m_listens[id.dump()] = Listen{id, std::move(uris), false};
    start_locked();
  }
  wake();
  return {};
}

void Subscriptions::cancel(const json& id)
{
  std::lock_guard lock(m_mutex);
  const std::string key = id.dump();
  if (m_listens.erase(key) == 0) {
    return;
  }
  std::vector<std::string> held;
  for (auto& [uri, watched] : m_watched) {
    if (watched.listens.erase(key) > 0) {
      held.push_back(uri);
    }
  }
  for (const std::string& uri : held) {
    release_locked(uri);
  }
}

bool Subscriptions::stop(std::chrono::milliseconds within)
{
  {
    std::lock_guard lock(m_mutex);
    m_stopping = true;
    m_write = nullptr;
  }
  wake();
  std::unique_lock lock(m_mutex);
  if (!m_thread.joinable()) {
    return true;
  }
  if (!m_exited_cv.wait_for(lock, within, [this] { return m_exited; })) {
    return false;
  }
  lock.unlock();
  m_thread.join();
  return true;
}

void Subscriptions::start_locked()
{
  if (m_thread.joinable() || m_stopping) {
    return;
  }
  if (m_wake[0] < 0 && ::pipe2(m_wake, O_NONBLOCK | O_CLOEXEC) != 0) {
    m_wake[0] = m_wake[1] = -1; // the watcher then wakes at least every poll period
  }
  m_thread = std::thread([this] { run(); });
}

void Subscriptions::wake()
{
  if (m_wake[1] >= 0) {
    const char byte = 1;
    [[maybe_unused]] const ssize_t written = ::write(m_wake[1], &byte, 1); // full pipe: already awake
  }
}

void Subscriptions::release_locked(const std::string& uri)
{
  const auto it = m_watched.find(uri);
  if (it != m_watched.end() && !it->second.legacy && it->second.listens.empty()) {
    m_watched.erase(it);
  }
}

void Subscriptions::mark_all_locked()
{
  for (auto& [uri, watched] : m_watched) {
    watched.recheck = true;
  }
}

void Subscriptions::notify_locked(const std::string& uri, const Watched& watched)
{
  if (!m_write || m_stopping) {
    return;
  }
  if (watched.legacy) {
    m_write(updated_notification(uri, nullptr));
  }
  for (const std::string& key : watched.listens) {
    const auto listen = m_listens.find(key);
    if (listen != m_listens.end() && listen->second.open) {
      m_write(updated_notification(uri, listen->second.id));
    }
  }
}

bool Subscriptions::recheck_marked()
{
  std::vector<std::pair<std::string, ResourceRef>> to_read;
  std::set<std::string> told;
  {
    std::lock_guard lock(m_mutex);
    for (auto& [uri, watched] : m_watched) {
      if (watched.tell) {
        notify_locked(uri, watched); // a change it surely shows: told before the read
        watched.tell = false;
        told.insert(uri);
      }
      if (watched.recheck) {
        to_read.emplace_back(uri, watched.ref);
        watched.recheck = false;
      }
    }
  }
  bool all_read = true;
  for (const auto& [uri, ref] : to_read) {
    ResourceRead read = read_resource(m_env, ref);
    std::lock_guard lock(m_mutex);
    const auto it = m_watched.find(uri);
    if (it == m_watched.end()) {
      continue; // unsubscribed meanwhile
    }
    if (store_away(read)) {
      it->second.recheck = true; // asked again after the backoff
      all_read = false;
      continue;
    }
    const std::uint64_t digest = read_digest(read);
    if (digest != it->second.digest) {
      it->second.digest = digest;
      it->second.view = watched_view(ref, m_env.me.name, read.structured);
      if (!told.contains(uri)) {
        notify_locked(uri, it->second);
      }
    }
  }
  return all_read;
}

void Subscriptions::run()
{
  Watcher store(m_env);
  Clock::time_point retry_at = Clock::now();
  mail::Millis backoff = 0;
  bool pending_retry = false; // a store call or a read failed: try again at retry_at
  const auto failed = [&](const Error* error) {
    if (error != nullptr) {
      store.drop(*error);
    }
    backoff = std::min(mail::next_store_retry(backoff), k_max_retry_ms);
    retry_at = Clock::now() + std::chrono::milliseconds(backoff);
    pending_retry = true;
  };
  for (;;) {
    {
      std::lock_guard lock(m_mutex);
      if (m_stopping) {
        break;
      }
    }
    const bool due = !pending_retry || Clock::now() >= retry_at;
    if (due) {
      pending_retry = false;
      if (!store.ready()) {
        if (auto opened = store.open(); !opened.ok()) {
          failed(&opened.error());
        } else {
          std::lock_guard lock(m_mutex);
          mark_all_locked(); // changes while it was away have no events this watcher saw
        }
      }
      // Rechecks first: what was marked before a listen is acknowledged is told before that
      // acknowledgement, never after it as news.
      if (!pending_retry) {
        if (recheck_marked()) {
          backoff = 0;
        } else {
          failed(nullptr);
        }
      }
      if (!pending_retry) {
        acknowledge_pending();
      }
    }
    Clock::time_point deadline = Clock::now() + k_idle_wait;
    if (pending_retry) {
      deadline = std::min(deadline, retry_at);
    }
    auto woke = store.wait(deadline, m_wake[0]);
    char drain[64];
    while (m_wake[0] >= 0 && ::read(m_wake[0], drain, sizeof drain) > 0) {
    }
    if (!woke.ok()) {
      failed(&woke.error());
      continue;
    }
    if (!*woke || !store.ready()) {
      continue;
    }
    auto changes = store.changes();
    if (!changes.ok()) {
      failed(&changes.error());
      continue;
    }
    std::lock_guard lock(m_mutex);
    for (auto& [uri, watched] : m_watched) {
      if (!changes->has_value()) {
        watched.recheck = true;
        continue;
      }
      for (const mail::Event& event : **changes) {
        if (may_change(watched.view, event)) {
          watched.recheck = true;
          watched.tell = watched.tell || surely_changes(watched.view, event);
        }
      }
    }
  }
  std::lock_guard lock(m_mutex);
  m_exited = true;
  m_exited_cv.notify_all();
}

} // namespace mailroom::mcp
