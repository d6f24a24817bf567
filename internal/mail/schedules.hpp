#pragma once

// Schedules (contract "Schedules", HiveKernel's cron tasks): a message a mailbox sends later, once
// (send --at/--in) or again and again (schedule add), and the record of each firing. These are the
// values the stores keep and the surfaces show; when a slot is due and what a firing does is
// decided in internal/schedule (rule.hpp, firing.hpp), which the stores run inside the firing's
// transaction.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mail/duration.hpp"
#include "mail/message.hpp"
#include "mail/wake.hpp"

namespace mailroom::mail {

enum class RuleKind { at, every, cron };
enum class CatchUp { latest, skip };
enum class Overlap { skip, send };
// A slot of the rule, or one extra firing asked for with `schedule run-now`.
enum class FiringKind { slot, run_now };
// sent: the message went to every recipient; partial: to some (retired or unknown ones were
// dropped and named); skipped_open: the last firing's request was still open (--overlap skip);
// missed: slots that passed while no firer ran (one row per run); failed: nothing could be sent
// (its error code is kept); suppressed: --dedup found a live copy.
enum class FiringOutcome { sent, partial, skipped_open, missed, failed, suppressed };

std::string_view to_string(RuleKind kind);
std::string_view to_string(CatchUp catch_up);
std::string_view to_string(Overlap overlap);
std::string_view to_string(FiringKind kind);
std::string_view to_string(FiringOutcome outcome);
std::optional<RuleKind> parse_rule_kind(std::string_view text);
std::optional<CatchUp> parse_catch_up(std::string_view text);
std::optional<Overlap> parse_overlap(std::string_view text);
std::optional<FiringKind> parse_firing_kind(std::string_view text);
std::optional<FiringOutcome> parse_firing_outcome(std::string_view text);

// When the slots are.
struct ScheduleRule {
  RuleKind kind = RuleKind::at;
  UnixMillis at = 0;               // at: the one slot
  Millis every = 0;                // every: the period (whole seconds)
  UnixMillis anchor = 0;           // every: the first slot (--start, else creation + every)
  std::string cron;                // cron: the expression as given
  std::string tz = "UTC";          // the zone (an IANA name), resolved when scheduling
  std::optional<UnixMillis> start; // --start as given
  std::optional<UnixMillis> until; // --until: no slot after it
};

// The message each firing sends: send's options as decided when scheduling.
struct ScheduleMessage {
  std::vector<std::string> to; // addresses as written (groups and @all expand at each firing)
  std::vector<std::string> cc;
  std::optional<std::string> subject; // nullopt: the body's first line, as send derives it
  std::string body;
  Priority priority = Priority::normal;
  std::string type = "cron_task";
  bool ack = false;
  std::optional<Millis> ttl; // nullopt: the time to the next slot (none for a one-shot)
  bool notify = false;       // --notify: the firer runs the [notify] command after each firing
};

// What `schedule add` or `send --at` stores (and what an edit replaces).
struct ScheduleSpec {
  Mailbox from; // the owner: the sender of every firing
  std::string name;
  ScheduleRule rule;
  CatchUp catch_up = CatchUp::latest;
  Overlap overlap = Overlap::skip;
  ScheduleMessage message;
  std::optional<std::string> idempotency_key; // a one-shot's --idempotency-key
  Mailbox created_by;                         // who scheduled it (an operator with --for)
};

// One firing row (a run's missed slots are one row with their count and range).
struct Firing {
  UnixMillis slot = 0;
  FiringKind kind = FiringKind::slot;
  UnixMillis fired_at = 0;
  FiringOutcome outcome = FiringOutcome::sent;
  std::optional<MessageId> message_id;
  std::int64_t count = 1;              // missed: how many slots
  std::optional<UnixMillis> last_slot; // missed: the last of them (slot is the first)
  std::string error_code;              // failed: the error's code; suppressed: empty
  std::string detail;                  // failed: the error; partial: the names dropped
  // The fired message's request state per recipient, when it expects a reply (show only).
  std::map<Mailbox, std::string> request_states;

  Millis lateness() const { return fired_at - slot; }
};

struct Schedule {
  std::string id; // internal ("sch-<16 hex>"): a re-added name gets a new one
  ScheduleSpec spec;
  UnixMillis created_at = 0;
  std::optional<UnixMillis> paused_at;
  std::optional<UnixMillis> ended_at;     // canceled, or nothing left to fire
  std::string end_reason;                 // "canceled", "done" (a one-shot fired, --until passed)
  std::optional<UnixMillis> next_at;      // the next slot; nullopt once ended
  std::optional<Firing> last;             // the last firing row
  std::optional<UnixMillis> last_run_now; // the last run-now (the 60 s rule)
  bool escalated = false;                 // the owner was told of a failing firing
  std::vector<Firing> firings;            // newest first; filled by show only
};

// Which schedules a list shows.
struct ScheduleQuery {
  std::optional<Mailbox> from; // nullopt: every sender's
  bool ended = false;          // also canceled and finished ones
};

// A change of one live schedule, found by owner and name.
struct ScheduleChange {
  enum class Kind { pause, resume, cancel, edit };
  Kind kind = Kind::pause;
  Mailbox from;
  std::string name;
  Mailbox acted_by;
  std::optional<ScheduleSpec> edited; // edit: the whole new spec (name and owner unchanged)
};

// A firing run: every due slot of every schedule (or of `from`'s), or one run-now.
struct FireRequest {
  bool dry_run = false;               // say what would fire, change nothing
  std::optional<Mailbox> from;        // only this owner's schedules
  std::optional<std::string> run_now; // with `from`: one extra firing of this schedule now
  std::size_t limit = 100000;         // at most this many schedules in one run
  // Whether a firing wakes its recipients, as a send's WakeWhen (ops::wake_when); `always` applies
  // only to a schedule made with --notify.
  WakeWhen wake;
};

// One schedule's part in a run.
struct Fired {
  Mailbox from;
  std::string name;
  std::vector<Firing> rows;        // what was recorded (missed, then the slot's own row)
  std::vector<Mailbox> recipients; // who got the message (for notify)
  std::string subject;
  bool notify = false;
};

struct FireReport {
  bool dry_run = false;
  std::vector<Fired> fired;
  std::optional<Error> stopped; // an error after some schedules were committed
};

// Who fires, for `no_firer`.
enum class FirerKind { run_due, serve, sweep };
std::string_view to_string(FirerKind kind);

// How long a firer's heartbeat counts: no beat in this long is `no_firer`.
inline constexpr Millis k_firer_heartbeat_window = 5 * k_minute_ms;
// How often a long-running firer records its heartbeat.
inline constexpr Millis k_firer_heartbeat_every = k_minute_ms;
// How long after a run-now a second one is a conflict.
inline constexpr Millis k_run_now_spacing = k_minute_ms;
// How many firing rows a schedule keeps (older ones are deleted as new ones are written).
inline constexpr std::int64_t k_firing_history = 1000;

} // namespace mailroom::mail
