#pragma once

// watch: run a command for each unread message of the caller, once, with claims and leases
// (several watchers share a mailbox), retries, replies and escalation (contract "Watching"). The
// loop is watch_loop.hpp: claim the next delivery, run the handler with the body on stdin while
// renewing the lease, then ack, reply, retry or set aside; wait for new mail as `wait` does.
//
// It reports what it does as events, as they happen, to the caller's WatchEmit (the CLI prints
// each as a line of text or JSON); warnings (a store it retries, a lease it renews late) are the
// session's notices.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "mail/claims.hpp"
#include "render/table.hpp"
#include "session.hpp"
#include "text/display.hpp"

namespace mailroom::ops {

struct WatchRequest {
  std::vector<std::string> types;             // any of these types (resolved: a typo is a did-you-mean)
  std::optional<std::string> from;            // one mailbox
  std::optional<std::string> lease;           // a duration (default 5m)
  std::optional<std::string> handler_timeout; // a duration (default 10m)
  std::optional<std::string> cancel_grace;    // a duration (default 10s): SIGTERM to SIGKILL of a
                                              // handler whose request its sender canceled
  std::int64_t max_attempts = mail::k_default_handler_attempts;
  bool once = false;                                    // process what is waiting now, then end
  std::vector<std::string> argv;                        // the handler (never a shell)
  std::vector<std::pair<std::string, std::string>> env; // added to every handler's environment
  std::string watcher;                                  // this watcher's name in its claims ("host:pid")
};

// One thing the watcher did: claimed, replied, done, failed, set_aside, escalated,
// escalation_held, and for a request the handler answered itself or its sender withdrew:
// declined, failed, asked, canceled.
struct WatchEvent {
  nlohmann::json fields;  // {"event":NAME,…}
  text::DisplayText text; // one line, without its newline
};
// Receives each event as it happens; a failed write is the caller's to ignore (events are a
// record, not the work: a closed stdout does not stop the watcher).
using WatchEmit = std::function<void(const WatchEvent& event)>;

// How the watch ended: 0 (`once`, nothing claimable left), or the signal (SIGINT, SIGTERM) that
// stopped it.
struct WatchEnd {
  int signal = 0;
};

// Runs until a signal (SIGINT/SIGTERM; a second one kills a running handler at once) or, with
// `once`, until nothing is claimable. A store locked when watch starts is waited out with
// backoff, as every store failure is once it runs. Errors: usage (a bad flag, a handler that is
// not executable), unsupported (a store without claims), the store's when they are not worth
// retrying.
Result<WatchEnd> watch(Session& session, const WatchRequest& request, const WatchEmit& emit);

// {"schema_version":1,"event":NAME,…}
nlohmann::json to_json(const WatchEvent& event);
// The event's line and a newline.
text::DisplayText to_text(const WatchEvent& event, const render::Style& style);

} // namespace mailroom::ops
