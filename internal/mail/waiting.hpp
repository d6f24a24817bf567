#pragma once

// `wait` and `send --wait-reply` (contract "Waiting"): which message a waiter is waiting for, and
// the loop that waits for it without busy polling. Written against the Provider interface only, so
// it works on every provider: a store with a change signal wakes on it; one without (the exec
// provider) is asked again at an interval.

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "mail/clock.hpp"
#include "mail/duration.hpp"
#include "mail/message.hpp"
#include "mail/provider.hpp"
#include "mail/request_end.hpp"
#include "util/sleep.hpp"

namespace mailroom::mail {

// How often a provider without a change signal is asked again (the exec provider: one `inbox` or
// `thread` run of the script per interval).
inline constexpr Millis k_wait_poll_interval_ms = k_second_ms;

struct WaitQuery {
  Mailbox mailbox;                // whose mail
  std::vector<std::string> types; // any of these; empty: any type
  std::optional<Mailbox> from;
  std::optional<ThreadId> thread;    // a thread id (callers resolve message ids)
  std::optional<MessageId> reply_to; // a reply to this message: matches even when already read
  std::optional<UnixMillis> since;   // created at or after (wait --since)
  // wait --after: only mail that arrived after this message (created later; in the same
  // millisecond, a greater id), taken in arrival order, so a loop that passes the last id it got
  // never sees a message twice.
  struct Cursor {
    UnixMillis created_at = 0;
    MessageId id;
  };
  std::optional<Cursor> after;
};

// True when `message`, as query.mailbox sees it, is what `query` waits for: a delivery to the
// mailbox, unexpired, unread and unarchived (or, with reply_to, a reply to that message in any
// read or archive state: a late reply is picked up whatever happened to it; never a request's
// notice — a question, a decline, a failure or a cancel — which ends the wait as its own
// outcome), matching every filter.
bool matches(const Message& message, const WaitQuery& query);

// The first message in inbox order (priority, then oldest first; with `after`, arrival order)
// that matches `query` and is not in `skip`, with its whole body; nullopt when there is none.
// Changes nothing. Errors: the provider's (not_found when reply_to names no message).
Result<std::optional<Message>> find_waiting(Provider& provider, const WaitQuery& query,
                                            const std::vector<MessageId>& skip = {});

// How often a waiter looks again at a match another taker holds (Provider::take): the holder may
// have died, and its hold then runs out.
inline constexpr Millis k_held_recheck_ms = k_second_ms;

// found: a match (with reply_to: the reply); input_required … expired: the request that reply_to
// names ended without a reply (mail/request_end.hpp, whose order these follow).
enum class WaitEnd {
  found,
  timed_out,
  interrupted,
  input_required,
  rejected,
  failed,
  set_aside,
  canceled,
  escalated,
  expired
};

// The contract's "outcome" of a wait: "replied" (found, with reply_to), "found", "timed_out", or
// how the request ended ("input_required", "rejected", "failed", "set_aside", "canceled",
// "escalated", "expired"); "interrupted" for an interrupted wait (never printed).
std::string_view outcome_name(WaitEnd end, bool reply_to);

struct WaitOutcome {
  WaitEnd end = WaitEnd::timed_out;
  std::optional<Message> message; // when found
  std::optional<Message> notice;  // the message that ended the wait: the match, or the escalation
                                  // that told the waiter its request was set aside or escalated
};

// Takes a match for the waiter (`wait --read`): true when it got it, false when another waiter
// took it first or holds it (the wait goes on, with the next match). Errors end the wait, as the
// provider's do.
using TakeFn = std::function<Result<bool>(const Message&)>;

// Told about a store failure the wait rides out, and the pause before it looks again.
using StoreRetryFn = std::function<void(const Error&, Millis pause_ms)>;

// The heartbeat interval of a waiter or watcher under `presence_after`: a third of it, so that
// one missed beat still leaves it seen; never under a second.
Millis heartbeat_interval(Millis presence_after);

// Presence while idle (contract "Presence is what the agent did": `wait` and `watch` heartbeat):
// `beat` is called once `interval_ms` of `clock`'s time has passed since the start or the last
// beat. An idle loop calls beat_if_due() before each sleep and sleeps no later than cap(until).
class IdleHeartbeat {
public:
  IdleHeartbeat() = default; // off: never beats, never shortens a sleep
  IdleHeartbeat(std::function<void()> beat, Millis interval_ms, const Clock& clock);

  void beat_if_due();
  // `until`, or the real time at which the next beat falls due when that is sooner.
  std::chrono::steady_clock::time_point cap(std::chrono::steady_clock::time_point until) const;

private:
  std::function<void()> m_beat;
  Millis m_interval_ms = 0;
  const Clock* m_clock = nullptr;
  UnixMillis m_last = 0;
};

struct WaitSettings {
  Millis poll_interval_ms = k_wait_poll_interval_ms;
  TakeFn take;                  // empty: a match is returned as found
  util::Pause* pause = nullptr; // the backoff's sleep; nullptr: real time
  StoreRetryFn on_retry;        // may be empty
  // Called once, when the change signal cannot be woken and polls (ChangeSignal::degraded()),
  // with its text; may be empty.
  std::function<void(const std::string&)> on_degraded;
  IdleHeartbeat heartbeat; // beats while the wait is idle; off by default
};

// Waits for the first match of `query`: arms the provider's change signal, then looks (so nothing
// committed before the wait began is missed), and after every wake looks again; without a signal,
// looks every `poll_interval_ms`. With settings.take, a match is returned only once taken; a
// match another taker holds is passed over for the next one and looked at again after every wake,
// and at least every k_held_recheck_ms while it is passed over. With
// reply_to, each look also asks the request's status (when the provider has views) and ends as
// soon as request_end() says no reply can come. Ends at `deadline` (nullopt: never) or when
// `interrupt_fd` (-1: none) becomes readable (it is not read). A store failure that may pass
// (mail/retry.hpp: a server restart, a lost connection, a lock) is ridden out with backoff,
// pausing 0.5 s doubling to 30 s, then the wait resumes; at the deadline the last such failure is
// the error. Changes nothing but what `take` changes.
// Errors: the provider's that may not pass (a store replaced under the wait), and `take`'s.
Result<WaitOutcome> wait_for(Provider& provider, const WaitQuery& query,
                             std::optional<std::chrono::steady_clock::time_point> deadline, int interrupt_fd,
                             const WaitSettings& settings = {});

} // namespace mailroom::mail
