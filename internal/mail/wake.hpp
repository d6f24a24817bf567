#pragma once

// Waking an idle agent (contract "Reaching an idle agent (wake)" and its decisions after review):
// the values the stores keep for it. A mailbox's wake target is stored with the host, uid and
// (tmux) socket it was set from; every wake is a row of a ledger keyed (recipient, message,
// target, attempt), claimed at most once; a per-(recipient, target) row holds the last wake, which
// decides the cooldown. What a target means and how it runs is internal/wake; when a wake is due
// is internal/ops/wake*.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mail/duration.hpp"
#include "mail/message.hpp"

namespace mailroom::mail {

// pending: recorded, not yet run (claimed_at set while a process runs it); sent: the target ran
// and succeeded; failed: it ran and failed (detail says how); deferred: refused by the cooldown or
// because the agent's hook ran within idle_after, to run at due_at; combined: a later wake covered
// it; skipped: not run, reason says why (read, archived, canceled, expired, not_submitted, gone,
// target_changed); unreachable: no process of the target's host and uid ran it within
// give_up_after.
enum class WakeOutcome { pending, sent, failed, deferred, combined, skipped, unreachable };

std::string_view to_string(WakeOutcome outcome);
std::optional<WakeOutcome> parse_wake_outcome(std::string_view text);

// Who runs (or set) a wake: a process's host name and OS user.
struct WakeHost {
  std::string host;
  std::int64_t uid = -1;
};

// A mailbox's stored wake target.
struct WakeTarget {
  Mailbox mailbox;
  std::string target; // the stored form (internal/wake parses and shows it)
  WakeHost set_from;  // only a process of this host and uid runs it
  std::string socket; // tmux: the server's socket path it was set with; else ""
  UnixMillis set_at = 0;
};

// One ledger row.
struct WakeKey {
  Mailbox recipient;
  MessageId message;
  std::string target;
  std::int64_t attempt = 0; // 0 for the send, k for the sweep's redelivery k
  bool operator==(const WakeKey&) const = default;
};

struct WakeRow {
  WakeKey key;
  WakeOutcome outcome = WakeOutcome::pending;
  std::string reason; // skipped: why; failed: the driver's detail; deferred: cooldown or active
  UnixMillis created_at = 0;
  UnixMillis due_at = 0;
  std::optional<UnixMillis> claimed_at;
  UnixMillis updated_at = 0;
  std::int64_t combined = 0;              // a run wake: how many deferred wakes it covered
  std::optional<MessageId> combined_into; // a combined wake: the message whose wake covered it
};

// A wake this process claimed and must now run, then record with finish_wake.
struct ClaimedWake {
  WakeKey key;
  std::string socket;
  Mailbox from;           // the message's sender
  std::string subject;    // the message's subject
  std::int64_t count = 1; // this wake and the deferred ones it combined
};

struct WakeClaimRequest {
  // The messages a send or a redelivery just committed: their ledger rows (attempt `attempt`, one
  // per recipient with a target) are recorded, then those this process may run are claimed. Empty:
  // a wake pass, which claims the due rows of every message (pending ones not yet claimed, and
  // deferred ones whose due_at has come).
  std::vector<MessageId> messages;
  std::int64_t attempt = 0;
  std::optional<Mailbox> recipient; // only this recipient's rows are recorded (a redelivery's)
  WakeHost by;                      // this process: only rows whose target was set from it are claimed
  Millis cooldown = 0;              // [wake] cooldown
  Millis idle_after = 0;            // [wake] idle_after: a hook run within it defers the wake
  Millis give_up_after = 0;         // [wake] give_up_after: older pending or deferred rows become unreachable
  Millis keep_for = 0;     // [wake] keep_for: a pass deletes rows that ended before now - keep_for (0: none)
  std::size_t limit = 100; // at most this many rows looked at in a pass
};

struct WakeClaims {
  std::vector<ClaimedWake> claimed; // to run now
  std::vector<WakeRow> settled;     // decided here: skipped, deferred, unreachable
};

// How a claimed wake ended: sent or failed (detail: the driver's reason), skipped (the tmux pane
// does not run an agent), or deferred again until retry_at (the pane was busy).
struct WakeFinish {
  WakeOutcome outcome = WakeOutcome::sent;
  std::string detail;
  UnixMillis retry_at = 0; // deferred only
};

// A mailbox's wake as team, agents list and wake_status show it.
struct WakeStatus {
  Mailbox mailbox;
  std::optional<WakeTarget> target;   // none: removed since its last wake
  std::optional<UnixMillis> last_at;  // the newest ledger row's last change
  std::optional<WakeOutcome> outcome; // its outcome
  std::string reason;                 // and reason or detail
};

// true when `outcome` tells the operator a wake did not reach the agent (team's wake_failed).
bool wake_failed(std::optional<WakeOutcome> outcome);

// Which messages wake their recipients (`[wake] on`, with a send's --notify or --wake folded in by
// ops::wake_when). A send, reply or firing carries it; compose decides with wakes() and the store
// records the wakes (ledger rows, pending) in the send's own transaction, so a wake is never lost
// between the commit and whatever runs it.
struct WakeWhen {
  bool always = false;  // --notify or --wake, with "notify" in [wake] on
  bool urgent = false;  // "urgent": urgent mail
  bool request = false; // "request": a type that expects a reply
};

// The one rule: does a message of `priority`, whose type expects a reply or not, wake?
bool wakes(const WakeWhen& when, Priority priority, bool expects_reply);

} // namespace mailroom::mail
