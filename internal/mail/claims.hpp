#pragma once

// Claims with leases, so several `watch` processes (on one host or several) never handle the same
// delivery at once (contract "Watching"), and the rules watch applies around them: how long a
// failed handler waits before its next attempt, and the one escalation sent when it gives up.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mail/compose.hpp"
#include "mail/duration.hpp"
#include "mail/message.hpp"
#include "mail/policy.hpp"

namespace mailroom::mail {

inline constexpr Millis k_default_lease_ms = 5 * k_minute_ms;
inline constexpr Millis k_default_handler_timeout_ms = 10 * k_minute_ms;
inline constexpr std::int64_t k_default_handler_attempts = 3;
// How long a handler whose request was canceled may take to stop after SIGTERM (watch
// --cancel-grace) before its process group is killed.
inline constexpr Millis k_default_cancel_grace_ms = 10 * k_second_ms;
// A failed handler is tried again after 1 s, 2 s, 4 s … (doubling per attempt), at most 5 minutes.
inline constexpr Millis k_handler_retry_first_ms = k_second_ms;
inline constexpr Millis k_handler_retry_max_ms = 5 * k_minute_ms;

struct ClaimRequest {
  Mailbox mailbox;
  std::vector<std::string> types; // any of these; empty: any type
  std::optional<Mailbox> from;
  std::int64_t lease_ms = k_default_lease_ms;
  std::string watcher; // who claims, e.g. "host:pid"; recorded for operators
  // A delivery whose handler attempts already reached this (attempts_spent) is set aside instead
  // of claimed: its earlier attempts ended without a result (a watcher killed, a lease lost).
  std::int64_t max_attempts = k_default_handler_attempts;
};

struct Claim {
  Message message; // as the mailbox sees it
  Mailbox mailbox;
  std::string token;         // proves ownership on renew and finish
  std::int64_t attempts = 0; // handler attempts before this one
};

// What claim_next found: a claim; or a delivery it set aside instead, because its attempts were
// spent; or neither, and how long until one of the deliveries that would match becomes claimable
// by time alone (a retry time or another watcher's lease running out).
struct ClaimNext {
  std::optional<Claim> claim;
  // Set aside by this call (no token: nothing to renew or finish); `attempts` is its count.
  std::optional<Claim> set_aside;
  std::optional<Millis> wake_in_ms; // only when both are empty; nullopt: nothing is pending
};

enum class ClaimOutcome { done, failed, released };

struct ClaimFinish {
  ClaimOutcome outcome = ClaimOutcome::done;
  std::int64_t retry_after_ms = 0;                        // failed: earliest next try
  std::int64_t max_attempts = k_default_handler_attempts; // failed: set aside once attempts reach this
};

struct ClaimResult {
  std::int64_t attempts = 0; // handler attempts so far, this one included (released: not counted)
  bool set_aside = false;    // failed for the last time: watch skips it until mark-unread
};

// The reply watch sends for a handler that succeeded on a reply-expected message: its standard
// output without the trailing newlines (as shell command substitution does). Empty: no reply.
std::string watch_reply_body(std::string_view output);

// True when a delivery with `attempts` handler attempts counted may not be tried again: it is set
// aside (by finish_claim after a failure, by claim_next when earlier attempts ended unseen).
bool attempts_spent(std::int64_t attempts, std::int64_t max_attempts);

// Why claim_next set a delivery aside: its last attempt left no result to quote.
inline constexpr std::string_view k_attempts_spent_reason =
    "earlier attempts ended without a result (the watcher stopped or lost its lease)";

// How many of a delivery's handler attempts failed, as the operator's views show it: all of them
// when it was set aside; else all but the one running now (a lease that holds) or the one that
// succeeded (a read delivery: a handler that succeeds marks it read).
std::int64_t failed_handler_attempts(const DeliveryStatus& delivery);

// How long after its `attempts`-th failed attempt (1 for the first) a handler is tried again.
Millis handler_retry_after(std::int64_t attempts);

// A delivery a watcher set aside: the message, its failed attempts, and the last failure.
struct SetAside {
  Message message;
  std::int64_t attempts = 0;
  std::string reason;
};

// Who a watcher's escalation about `message` goes to: `redelivery.escalate_to` ("sender" means
// the message's sender); nullopt when the message itself came from `mailroom` (no escalation
// about an escalation).
std::optional<Mailbox> watch_escalation_recipient(const Message& message,
                                                  const RedeliverySchedule& redelivery);

// The first line of every escalation a watcher of `mailbox` running `argv` sends: what makes two
// escalations the same (mailbox, handler) pair's.
std::string watch_pair_line(const Mailbox& mailbox, const std::vector<std::string>& argv);

// True when `message` is a watcher's escalation whose pair line is `pair_line`.
bool is_watch_escalation_for(const Message& message, std::string_view pair_line);

// The escalation a watcher of `mailbox` running `argv` sends to `recipient` about the deliveries
// it set aside (`set_aside`, not empty, oldest first): from the reserved sender `mailroom`, type
// escalation, high priority, a child of the last one's trace. Its subject is "watch gave up on
// <id> for <mailbox> after N attempts" for one, "watch gave up on N messages for <mailbox>: <ids>"
// for several; its body starts with the pair line and names each with a `--for` hint.
SendRequest watch_escalation(const std::vector<SetAside>& set_aside, const Mailbox& mailbox,
                             const std::vector<std::string>& argv, const Mailbox& recipient);

} // namespace mailroom::mail
