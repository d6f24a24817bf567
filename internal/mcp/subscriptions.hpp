#pragma once

// Resource subscriptions of `mailroom mcp`, both eras (contract "MCP, round 2" and "Round 4:
// decisions after review", MCP): legacy `resources/subscribe` (one set of URIs per server,
// `notifications/resources/updated {uri}`) and 2026-07-28 `subscriptions/listen` (each listen its
// own set of URIs, acknowledged with `notifications/subscriptions/acknowledged` before anything
// else carries its id, every notification with the listen's id in
// `_meta["io.modelcontextprotocol/subscriptionId"]`).
//
// One watcher thread serves every subscription, started at the first one: it holds a store
// connection of its own and waits on the store's change signal (ops::change_signal: inotify on
// SQLite, LISTEN on PostgreSQL), so an idle server sleeps. When the store changed it reads the new
// events (ops::events), reads again each subscribed resource an event may change
// (mcp::may_change), and notifies when what the resource shows differs from its last read
// (read_digest), or, for new mail to a subscribed inbox, notifies at once and reads afterwards: a
// change another process committed is heard as soon as the signal wakes. A store
// without events (the exec provider) or without a signal (polled every k_poll_period) has every
// subscribed resource read again on each wake; a store that fails is asked again with backoff, and
// every resource is read again when it answers.
//
// Nothing is written for a listen after its notifications/cancelled, and nothing at all after
// stop(). Writes go through the server's writer, serialized with every answer.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "mcp/resources.hpp"
#include "mcp/tools.hpp"

namespace mailroom::mcp {

inline constexpr std::string_view k_subscription_id_key = "io.modelcontextprotocol/subscriptionId";

struct SubscriptionLimits {
  std::size_t max_listens = 64;    // open subscriptions/listen requests
  std::size_t max_resources = 256; // distinct subscribed URIs
};

// Writes one message to the client, serialized with the server's answers.
using Write = std::function<void(const json& message)>;

// notifications/resources/updated for `uri`; with the listen's id in _meta when `listen` is not
// null.
json updated_notification(const std::string& uri, const json& listen);
// notifications/subscriptions/acknowledged for listen `listen`, honouring `uris` (the filter's
// resourceSubscriptions the server watches; other kinds of notification are never sent).
json acknowledged_notification(const json& listen, const std::vector<std::string>& uris);

class Subscriptions {
public:
  explicit Subscriptions(const ToolEnv& env, SubscriptionLimits limits = {});
  ~Subscriptions();
  Subscriptions(const Subscriptions&) = delete;
  Subscriptions& operator=(const Subscriptions&) = delete;

  // The writer the notifications go through (the server gives it before the first message).
  void attach(Write write);

  // Legacy: watches `uri` (already read: `read`, found) for this server. Errors: usage when the
  // limit of subscribed resources is reached.
  Result<void> subscribe(const std::string& uri, const ResourceRef& ref, const ResourceRead& read);
  // Legacy: stops watching `uri` for this server (nothing when it was not subscribed).
  void unsubscribe(const std::string& uri);

  // Modern: a listen request with id `id` for `uris` (as the client listed them). The watcher reads
  // each, acknowledges those that exist (at most the limit), and from then on notifies. Errors:
  // usage when max_listens are open.
  Result<void> listen(const json& id, std::vector<std::string> uris);
  // notifications/cancelled for `id`: a listen with that id ends; nothing more is written for it.
  void cancel(const json& id);

  // Ends the watcher: nothing is written afterwards. True when its thread ended within `within`
  // (false: it is still inside a store call; the caller must not destroy this object).
  bool stop(std::chrono::milliseconds within);

private:
  struct Watched {
    ResourceRef ref;
    WatchedView view;
    std::uint64_t digest = 0;
    bool legacy = false;           // resources/subscribe'd
    std::set<std::string> listens; // keys of the listens that hold it
    bool recheck = false;          // read it again on the next pass
    bool tell = false;             // notify before that read (surely_changes)
  };
  struct Listen {
    json id;
    std::vector<std::string> asked; // pending: the URIs to read and acknowledge
    bool open = false;              // acknowledged
  };

  void start_locked();
  void wake();
  void run();
  // One pass: pending listens acknowledged, resources marked for a recheck read again.
  void acknowledge_pending();
  bool recheck_marked(); // false when a read found the store away (asked again later)
  void notify_locked(const std::string& uri, const Watched& watched);
  void release_locked(const std::string& uri);
  void mark_all_locked();

  const ToolEnv& m_env;
  SubscriptionLimits m_limits;
  std::mutex m_mutex;
  std::condition_variable m_exited_cv;
  Write m_write;                            // under m_mutex
  std::map<std::string, Watched> m_watched; // by URI, under m_mutex
  std::map<std::string, Listen> m_listens;  // by the listen id's JSON text, under m_mutex
  bool m_stopping = false;                  // under m_mutex
  bool m_exited = false;                    // under m_mutex
  int m_wake[2] = {-1, -1};
  std::thread m_thread;
};

} // namespace mailroom::mcp
