#pragma once

// What a firing does (contract "Schedules" and its decisions after review), decided here and run
// by the stores inside the firing's transaction:
//  - which of a schedule's due slots fire and which are recorded `missed` (catch-up);
//  - whether a slot is skipped because the last firing's request is still open (overlap);
//  - the message a slot sends (its TTL counted from the slot), and who is dropped from it;
//  - the escalation its owner gets when a firing fails.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "mail/audience.hpp"
#include "mail/compose.hpp"
#include "mail/policy.hpp"
#include "mail/schedules.hpp"
#include "schedule/rule.hpp"
#include "schedule/zone.hpp"

namespace mailroom::schedule {

// A stored rule, ready to evaluate.
struct Evaluator {
  Zone zone;
  Rule rule;
};

// Zones by name, each file read once (a firing run evaluates many schedules).
class ZoneCache {
public:
  explicit ZoneCache(std::string directory = std::string(k_zoneinfo_dir)) : m_directory(std::move(directory))
  {
  }
  // The zone `name`. Errors: as Zone::load.
  Result<Zone> get(const std::string& name);

private:
  std::string m_directory;
  std::map<std::string, Zone> m_zones;
};

// The evaluator of `stored` with zones from `zones` (or read from the system's directory).
// Errors: usage when its zone or cron expression no longer loads (a zone removed from the system).
Result<Evaluator> evaluator_of(const mail::ScheduleRule& stored, ZoneCache& zones);
Result<Evaluator> evaluator_of(const mail::ScheduleRule& stored);

// `rule` as a new schedule created at `now` stores it: an --every without --start is anchored one
// period after `now` (to the second). Then its first slot: at or after `now` for a one-shot,
// strictly after `now` otherwise. Errors: usage when it has no slot at all (e.g. --until before
// the first one, or a cron expression that names no real day).
struct FirstSlot {
  mail::ScheduleRule rule;
  mail::UnixMillis next_at = 0;
};
Result<FirstSlot> first_slot(mail::ScheduleRule rule, mail::UnixMillis now);

// The next slot after an edit or a resume at `now`: the first slot after `now` that is also after
// `last_recorded` (an edit never fires a slot already recorded); nullopt when none is left.
std::optional<mail::UnixMillis> next_slot_from(const Evaluator& evaluator, mail::UnixMillis now,
                                               std::optional<mail::UnixMillis> last_recorded);

// A run's missed slots: one row.
struct MissedRun {
  std::int64_t count = 0;
  mail::UnixMillis first = 0;
  mail::UnixMillis last = 0;
};

// What one run does with a schedule whose next slot is `next_at`, at `now`.
struct DuePlan {
  std::optional<MissedRun> missed;         // slots recorded `missed`
  std::optional<mail::UnixMillis> fire;    // the slot that fires
  std::optional<mail::UnixMillis> next_at; // the schedule's next slot afterwards (nullopt: done)
};

// Nothing is due while `next_at` is after `now`. Otherwise every slot from `next_at` to `now` is
// due; a slot is missed when a later one is also due. With catch-up `latest` the last due slot
// fires (late) and the others are missed; with `skip` a run that finds several due slots misses
// them all and fires none (a single due slot fires late). A one-shot fires however late.
DuePlan plan_due(const Evaluator& evaluator, mail::CatchUp catch_up, mail::UnixMillis next_at,
                 mail::UnixMillis now);

// Whether a slot is recorded `skipped_open` instead of sent: --overlap skip, a type that expects a
// reply, and the last `sent` firing's request still open for some recipient at the slot.
bool skipped_for_overlap(mail::Overlap overlap, bool expects_reply, bool last_request_open);

// A delivery's request state when the store keeps none for it (a delivery written before the
// request life, or one the store's own request_state does not cover; the stored state wins:
// providers/sqlstore/schedules.cpp): null when the type expects no reply, completed once the
// recipient replied to the message itself, expired once its expires_at is at or before `at`,
// working once read, else submitted.
std::optional<std::string> request_state_of(bool expects_reply, bool replied, bool read,
                                            std::optional<mail::UnixMillis> expires_at, mail::UnixMillis at);
// Whether a request in `state` is still open (not completed, failed, rejected, canceled or expired).
bool is_open_state(const std::string& state);

// The recipients of a firing: the schedule's addresses without the mailboxes that are retired or
// unknown now (`dropped`, named in the firing's row). Groups and @all expand at compose.
struct Recipients {
  std::vector<std::string> to;
  std::vector<std::string> cc;
  std::vector<mail::Mailbox> dropped;
};
Recipients usable_recipients(const mail::ScheduleSpec& spec, const mail::Directory& directory,
                             const mail::MailPolicy& policy);

// The send of slot `slot` of schedule `schedule` to `recipients`: the schedule's message, its
// `schedule` and `slot` stamped, its TTL counted from the slot (the schedule's --ttl, else the
// time to the next slot).
mail::SendRequest firing_request(const mail::Schedule& schedule, const Evaluator& evaluator,
                                 const Recipients& recipients, mail::UnixMillis slot);

// The one escalation a failing schedule's owner gets (until a later firing succeeds).
mail::SendRequest failure_escalation(const mail::Schedule& schedule, mail::UnixMillis slot,
                                     const Error& error);

} // namespace mailroom::schedule
