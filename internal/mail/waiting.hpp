#pragma once

// `wait` and `send --wait-reply` (contract "Waiting"): which message a waiter is waiting for, and
// the loop that waits for it without busy polling. Written against the Provider interface only, so
// it works on every provider: a store with a change signal wakes on it; one without (the exec
// provider) is asked again at an interval.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "mail/duration.hpp"
#include "mail/message.hpp"
#include "mail/provider.hpp"

namespace mailroom::mail {

// How often a provider without a change signal is asked again (the exec provider: one `inbox` or
// `thread` run of the script per interval).
inline constexpr Millis k_wait_poll_interval_ms = k_second_ms;

struct WaitQuery {
  Mailbox mailbox;                 // whose mail
  std::vector<std::string> types;  // any of these; empty: any type
  std::optional<Mailbox> from;
  std::optional<ThreadId> thread;  // a thread id (callers resolve message ids)
  std::optional<MessageId> reply_to; // a reply to this message: matches even when already read
};

// True when `message`, as query.mailbox sees it, is what `query` waits for: a delivery to the
// mailbox, unexpired, unread and unarchived (or, with reply_to, a reply to that message in any
// read or archive state: a late reply is picked up whatever happened to it), matching every filter.
bool matches(const Message& message, const WaitQuery& query);

// The first message in inbox order (priority, then oldest first) that matches `query`, with its
// whole body; nullopt when there is none. Changes nothing.
// Errors: the provider's (not_found when reply_to names no message).
Result<std::optional<Message>> find_waiting(Provider& provider, const WaitQuery& query);

enum class WaitEnd { found, timed_out, interrupted };

struct WaitOutcome {
  WaitEnd end = WaitEnd::timed_out;
  std::optional<Message> message; // when found
};

// Waits for the first match of `query`: arms the provider's change signal, then looks (so nothing
// committed before the wait began is missed), and after every wake looks again; without a signal,
// looks every `poll_interval_ms`. Ends at `deadline` (nullopt: never) or when `interrupt_fd` (-1:
// none) becomes readable (it is not read). Changes nothing. Errors: the provider's.
Result<WaitOutcome> wait_for(Provider& provider, const WaitQuery& query,
                             std::optional<std::chrono::steady_clock::time_point> deadline, int interrupt_fd,
                             Millis poll_interval_ms = k_wait_poll_interval_ms);

} // namespace mailroom::mail
