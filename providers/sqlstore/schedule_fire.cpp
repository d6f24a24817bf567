// Firing schedules: every due slot, or one run-now. Each schedule fires in its own write
// transaction that reads its row again (PostgreSQL: locked FOR UPDATE), records the firing rows
// keyed (schedule, slot, kind), advances the schedule and stores the message, all or nothing: a
// second firer finds the slot recorded and the schedule advanced, and fires nothing. What fires
// and what the message is come from internal/schedule (firing.hpp).

#include <algorithm>

#include <fmt/format.h>

#include "mail/health.hpp"
#include "schedule/firing.hpp"
#include "sqlstore/schedule_rows.hpp"
#include "sqlstore/store.hpp"
#include "text/strings.hpp"

namespace mailroom::providers::sqlstore {

namespace {

// The reason of the error that rolls back a firing another firer recorded first.
constexpr std::string_view k_already_fired = "already_fired";

Error already_fired()
{
  Error error = make_error(ErrorCode::conflict, "the slot was fired by another firer");
  error.reason = std::string(k_already_fired);
  return error;
}

} // namespace

// One firing of `schedule` for `slot`: decides its outcome, and stores its row and (when sent)
// its message on `c`. `overlap` says whether --overlap applies (not to a run-now). Appends the
// recorded row and the recipients to `fired`, and the events to `events`.
class Firer {
public:
  Firer(SqlStore& store, db::Connection& c, mail::Schedule& schedule, const schedule::Evaluator& evaluator,
        mail::UnixMillis now, const mail::WakeWhen& wake)
      : m_store(store), m_c(c), m_schedule(schedule), m_evaluator(evaluator), m_now(now), m_wake(wake)
  {
  }

  Result<void> record(const mail::Firing& firing);
  Result<void> fire(mail::UnixMillis slot, mail::FiringKind kind, bool overlap, mail::Fired& fired,
                    std::vector<mail::EventDraft>& events);

private:
  Result<bool> last_request_open(mail::UnixMillis slot);

  SqlStore& m_store;
  db::Connection& m_c;
  mail::Schedule& m_schedule;
  const schedule::Evaluator& m_evaluator;
  mail::UnixMillis m_now;
  mail::WakeWhen m_wake;
};

Result<void> Firer::record(const mail::Firing& firing)
{
  TRY_ASSIGN(db::Statement * insert, m_c.cached(m_store.m_sql.schedules.insert_firing));
  TRY(bind_firing(*insert, m_schedule.id, firing));
  TRY_ASSIGN(const std::int64_t inserted, insert->exec());
  if (inserted == 0) {
    return already_fired();
  }
  m_schedule.last = firing;
  return {};
}

Result<bool> Firer::last_request_open(mail::UnixMillis slot)
{
  TRY_ASSIGN(db::Statement * last, m_c.cached(m_store.m_sql.schedules.last_sent));
  TRY(last->bind(m_schedule.id));
  std::optional<std::string> id;
  {
    TRY_ASSIGN(const bool found, last->step());
    if (!found) {
      return false;
    }
    db::ResetGuard reset(*last);
    id = last->get<std::optional<std::string>>("message_id");
  }
  if (!id) {
    return false;
  }
  TRY_ASSIGN(const auto states, m_store.request_states(m_c, *id, slot));
  return std::any_of(states.begin(), states.end(),
                     [](const auto& state) { return schedule::is_open_state(state.second); });
}

Result<void> Firer::fire(mail::UnixMillis slot, mail::FiringKind kind, bool overlap, mail::Fired& fired,
                         std::vector<mail::EventDraft>& events)
{
  const mail::MailPolicy& policy = m_store.m_policy;
  mail::Firing firing;
  firing.slot = slot;
  firing.kind = kind;
  firing.fired_at = m_now;
  const auto type = policy.types.resolve(m_schedule.spec.message.type);
  std::optional<mail::Composed> composed;
  std::optional<Error> failure;
  bool skipped = false;
  if (overlap && type.ok()) {
    TRY_ASSIGN(const bool open, last_request_open(slot));
    skipped = schedule::skipped_for_overlap(m_schedule.spec.overlap, type->expects_reply, open);
  }
  schedule::Recipients recipients;
  if (skipped) {
    firing.outcome = mail::FiringOutcome::skipped_open;
  } else {
    TRY_ASSIGN(const mail::Directory directory, m_store.directory_on(m_c));
    recipients = schedule::usable_recipients(m_schedule.spec, directory, policy);
    if (recipients.to.empty() && recipients.cc.empty()) {
      failure =
          make_error(ErrorCode::unknown_recipient, fmt::format("every recipient is retired or unknown: {}",
                                                               text::join(recipients.dropped, ", ")));
    } else {
      mail::SendRequest request = schedule::firing_request(m_schedule, m_evaluator, recipients, slot);
      request.wake = m_wake;
      request.wake.always = m_wake.always && m_schedule.spec.message.notify;
      auto made = mail::compose_send(request, directory, policy,
                                     mail::Stamp{m_now, m_store.m_origin.uid, m_store.m_origin.host});
      if (made.ok()) {
        composed = std::move(made).value();
      } else {
        failure = std::move(made).error();
      }
    }
    if (failure) {
      firing.outcome = mail::FiringOutcome::failed;
      firing.error_code = std::string(to_string(failure->code));
      firing.detail = failure->message;
    } else {
      firing.outcome = recipients.dropped.empty() ? mail::FiringOutcome::sent : mail::FiringOutcome::partial;
      firing.message_id = composed->message.id;
      if (!recipients.dropped.empty()) {
        firing.detail = fmt::format("dropped (retired or unknown): {}", text::join(recipients.dropped, ", "));
      }
    }
  }
  TRY(record(firing));
  if (composed) {
    TRY(m_store.insert(m_c, *composed));
    fired.recipients = composed->message.to;
    fired.recipients.insert(fired.recipients.end(), composed->message.cc.begin(), composed->message.cc.end());
    fired.subject = composed->message.subject;
    fired.notify = m_schedule.spec.message.notify;
    m_schedule.escalated = false;
  }
  if (failure && !m_schedule.escalated) {
    // One escalation per schedule until a later firing succeeds; one its owner cannot receive is
    // skipped (the failed row still says why).
    const mail::SendRequest tell = schedule::failure_escalation(m_schedule, slot, *failure);
    mail::MailPolicy lenient = policy;
    lenient.recipients = mail::RecipientPolicy::any;
    TRY_ASSIGN(const mail::Directory directory, m_store.directory_on(m_c));
    auto escalation = mail::compose_send(tell, directory, lenient,
                                         mail::Stamp{m_now, m_store.m_origin.uid, m_store.m_origin.host});
    if (escalation.ok()) {
      TRY(m_store.insert(m_c, *escalation));
      m_schedule.escalated = true;
    }
  }
  fired.rows.push_back(firing);
  events.push_back(mail::EventDraft{mail::EventType::schedule_fired, firing.message_id.value_or(""),
                                    m_schedule.spec.from, m_schedule.spec.from});
  return {};
}

Result<std::optional<mail::Fired>> SqlStore::fire_due_one(db::Connection& c, const std::string& id,
                                                          schedule::ZoneCache& zones,
                                                          const mail::WakeWhen& wake)
{
  const ScheduleQueries& sql = m_sql.schedules;
  TRY_ASSIGN(const mail::UnixMillis now, this->now());
  std::optional<mail::Schedule> found;
  {
    TRY_ASSIGN(db::Statement * by_id, c.cached(sql.by_id));
    TRY(by_id->bind(id));
    TRY_ASSIGN(const bool row, by_id->step());
    if (row) {
      db::ResetGuard reset(*by_id);
      found = schedule_from_row(*by_id);
    }
  }
  if (!found || found->ended_at || found->paused_at || !found->next_at || *found->next_at > now) {
    return std::optional<mail::Fired>(); // fired, paused or ended by someone else meanwhile
  }
  mail::Schedule& schedule = *found;
  mail::Fired fired{schedule.spec.from, schedule.spec.name, {}, {}, {}, false};
  std::vector<mail::EventDraft> events;
  auto evaluator = schedule::evaluator_of(schedule.spec.rule, zones);
  if (!evaluator.ok()) {
    // Its zone or expression no longer loads here: record why and stop it, rather than fail every
    // run of every firer.
    mail::Firing broken{*schedule.next_at, mail::FiringKind::slot, now, mail::FiringOutcome::failed};
    broken.error_code = std::string(to_string(evaluator.error().code));
    broken.detail = evaluator.error().message;
    TRY_ASSIGN(db::Statement * insert, c.cached(sql.insert_firing));
    TRY(bind_firing(*insert, schedule.id, broken));
    TRY(insert->exec());
    schedule.last = broken;
    schedule.next_at.reset();
    schedule.ended_at = now;
    schedule.end_reason = "broken";
    fired.rows.push_back(broken);
    TRY(update_schedule(c, schedule));
    TRY(record_events(
        c, now,
        {mail::EventDraft{mail::EventType::schedule_fired, "", schedule.spec.from, schedule.spec.from}}));
    return std::optional<mail::Fired>(std::move(fired));
  }
  const schedule::DuePlan plan =
      schedule::plan_due(*evaluator, schedule.spec.catch_up, *schedule.next_at, now);
  Firer firer(*this, c, schedule, *evaluator, now, wake);
  if (plan.missed) {
    mail::Firing missed{plan.missed->first, mail::FiringKind::slot, now, mail::FiringOutcome::missed};
    missed.count = plan.missed->count;
    missed.last_slot = plan.missed->last;
    TRY(firer.record(missed));
    fired.rows.push_back(missed);
    events.push_back(
        mail::EventDraft{mail::EventType::schedule_fired, "", schedule.spec.from, schedule.spec.from});
  }
  if (plan.fire) {
    TRY(firer.fire(*plan.fire, mail::FiringKind::slot, true, fired, events));
  }
  schedule.next_at = plan.next_at;
  if (!schedule.next_at) {
    schedule.ended_at = now;
    schedule.end_reason = "done";
  }
  TRY(update_schedule(c, schedule));
  TRY_ASSIGN(db::Statement * prune, c.cached(sql.prune_firings));
  TRY(prune->bind(schedule.id, mail::k_firing_history));
  TRY(prune->exec());
  TRY(record_events(c, now, events));
  return std::optional<mail::Fired>(std::move(fired));
}

Result<mail::FireReport> SqlStore::fire(const mail::FireRequest& request)
{
  if (request.run_now) {
    return run_now(request);
  }
  mail::FireReport report;
  report.dry_run = request.dry_run;
  std::vector<std::string> due;
  schedule::ZoneCache zones;
  {
    TRY_ASSIGN(const mail::UnixMillis now, this->now());
    TRY_ASSIGN(db::Connection * reader, m_engine->reader());
    TRY_ASSIGN(db::Statement * select, reader->cached(m_sql.schedules.due));
    TRY(select->bind(now, request.from, static_cast<std::int64_t>(request.limit)));
    TRY(select->for_each_row([&](const db::Statement& row) { due.push_back(row.get<std::string>("id")); }));
    if (request.dry_run) {
      TRY_ASSIGN(db::Statement * by_id, reader->cached(m_sql.schedules.by_id));
      for (const std::string& id : due) {
        TRY(by_id->bind(id));
        TRY_ASSIGN(const bool row, by_id->step());
        if (!row) {
          continue;
        }
        mail::Schedule schedule = schedule_from_row(*by_id);
        by_id->reset();
        mail::Fired would{schedule.spec.from, schedule.spec.name, {}, {}, {}, false};
        auto evaluator = schedule::evaluator_of(schedule.spec.rule, zones);
        if (evaluator.ok() && schedule.next_at) {
          const schedule::DuePlan plan =
              schedule::plan_due(*evaluator, schedule.spec.catch_up, *schedule.next_at, now);
          if (plan.missed) {
            mail::Firing missed{plan.missed->first, mail::FiringKind::slot, now, mail::FiringOutcome::missed};
            missed.count = plan.missed->count;
            missed.last_slot = plan.missed->last;
            would.rows.push_back(missed);
          }
          if (plan.fire) {
            would.rows.push_back(
                mail::Firing{*plan.fire, mail::FiringKind::slot, now, mail::FiringOutcome::sent});
          }
        }
        report.fired.push_back(std::move(would));
      }
      return report;
    }
  }
  for (const std::string& id : due) {
    auto fired = write([&](db::Connection& c) { return fire_due_one(c, id, zones, request.wake); });
    if (!fired.ok()) {
      if (fired.error().reason == k_already_fired) {
        continue;
      }
      if (report.fired.empty()) {
        return std::move(fired).error();
      }
      report.stopped = std::move(fired).error();
      break;
    }
    if (*fired) {
      report.fired.push_back(std::move(**fired));
    }
  }
  return report;
}

Result<mail::FireReport> SqlStore::run_now(const mail::FireRequest& request)
{
  mail::FireReport report;
  report.dry_run = request.dry_run;
  const mail::Mailbox from = request.from.value_or("");
  auto fired = write([&](db::Connection& c) -> Result<mail::Fired> {
    TRY_ASSIGN(const mail::UnixMillis now, this->now());
    TRY_ASSIGN(mail::Schedule schedule, live_schedule(c, from, *request.run_now));
    if (schedule.last_run_now && now - *schedule.last_run_now < mail::k_run_now_spacing) {
      std::string first;
      TRY_ASSIGN(db::Statement * earlier, c.cached(m_sql.schedules.firing));
      TRY(earlier->bind(schedule.id, *schedule.last_run_now, mail::to_string(mail::FiringKind::run_now)));
      TRY_ASSIGN(const bool row, earlier->step());
      if (row) {
        db::ResetGuard reset(*earlier);
        const mail::Firing f = firing_from_row(*earlier);
        first = f.message_id ? fmt::format(" (message {})", *f.message_id)
                             : fmt::format(" ({})", to_string(f.outcome));
      }
      return make_error(ErrorCode::conflict,
                        fmt::format("schedule {} was already run now {}s ago{}", schedule.spec.name,
                                    (now - *schedule.last_run_now) / 1000, first),
                        "one run-now a minute; the next slot fires as scheduled");
    }
    TRY_ASSIGN(const schedule::Evaluator evaluator, schedule::evaluator_of(schedule.spec.rule));
    mail::Fired out{schedule.spec.from, schedule.spec.name, {}, {}, {}, false};
    if (request.dry_run) {
      out.rows.push_back(mail::Firing{now, mail::FiringKind::run_now, now, mail::FiringOutcome::sent});
      return out;
    }
    std::vector<mail::EventDraft> events;
    Firer firer(*this, c, schedule, evaluator, now, request.wake);
    TRY(firer.fire(now, mail::FiringKind::run_now, false, out, events));
    schedule.last_run_now = now;
    TRY(update_schedule(c, schedule));
    TRY(record_events(c, now, events));
    return out;
  });
  TRY_ASSIGN(mail::Fired one, std::move(fired));
  report.fired.push_back(std::move(one));
  return report;
}

} // namespace mailroom::providers::sqlstore
