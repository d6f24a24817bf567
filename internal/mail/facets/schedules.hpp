#pragma once

// The schedules facet (contract "Schedules"): schedules kept in the store and their firings, each
// slot fired exactly once however many firers run on however many hosts (mail/schedules.hpp has
// the values; internal/schedule decides when a slot is due and what its firing does).

#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "mail/schedules.hpp"

namespace mailroom::mail {

struct ScheduleAdded {
  Schedule schedule;
  bool replayed = false; // a one-shot's idempotency key named this earlier schedule
};

// What the firers' heartbeats and the schedules' next slots say, at the store's clock.
struct FirerStatus {
  UnixMillis now = 0;
  std::optional<UnixMillis> last_beat; // the newest heartbeat of any firer
  std::optional<UnixMillis> next_due;  // the earliest next slot of a live, unpaused schedule
};

class Schedules {
public:
  // Stores `spec` as a new schedule (its first slot computed at the store's clock) and records a
  // schedule.changed event. Errors: conflict when `spec.from` has a live schedule of that name;
  // usage when the rule has no slot at all; a one-shot whose idempotency key was used before
  // returns that schedule with `replayed` (conflict when its content differs).
  virtual Result<ScheduleAdded> add_schedule(const ScheduleSpec& spec) = 0;
  // The schedules `query` selects, by owner then name, each with its last firing. Changes nothing.
  virtual Result<std::vector<Schedule>> schedules(const ScheduleQuery& query) = 0;
  // The live schedule `name` of `from` (or, when none is live, its newest ended one) with its
  // newest `history` firings and their messages' request states. Changes nothing. Errors:
  // not_found with did-you-mean suggestions among `from`'s names.
  virtual Result<Schedule> schedule(const Mailbox& from, const std::string& name, std::size_t history) = 0;
  // Pauses, resumes, cancels or edits a live schedule in one transaction (an edit or a resume
  // recomputes the next slot from now and never fires a slot already recorded) and records a
  // schedule.changed event; returns it as it is after. Errors: not_found (with suggestions),
  // usage (an edit whose rule has no slot left).
  virtual Result<Schedule> change_schedule(const ScheduleChange& change) = 0;
  // Fires every due slot (request.from: of that owner only), each schedule in its own
  // transaction keyed (schedule, slot, kind), or one run-now; with dry_run reports what would
  // fire and changes nothing. Only committed firings are reported; a failure after some commits is
  // report.stopped. Errors: store errors before anything was committed; run-now: not_found, and
  // conflict for a second run-now within k_run_now_spacing.
  virtual Result<FireReport> fire(const FireRequest& request) = 0;
  // Records that a firer of `kind` ran now (host and pid from the store's origin).
  virtual Result<void> record_firer(FirerKind kind) = 0;
  // The newest heartbeat and the next slot due. Changes nothing.
  virtual Result<FirerStatus> firer_status() = 0;

protected:
  ~Schedules() = default; // a facet is reached through Provider::facets(), never owned
};

} // namespace mailroom::mail
