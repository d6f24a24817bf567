// Schedules kept in the store: adding, listing, showing and changing them, and the firers'
// heartbeats. When a slot is due and what a change recomputes is internal/schedule's
// (firing.hpp); this file stores and reads. Firing is schedule_fire.cpp.

#include <fmt/format.h>

#include "mail/ids.hpp"
#include "schedule/firing.hpp"
#include "sqlstore/rows.hpp"
#include "sqlstore/schedule_rows.hpp"
#include "sqlstore/store.hpp"
#include "text/strings.hpp"

namespace mailroom::providers::sqlstore {

namespace {

// Every row of `statement` as a schedule.
Result<std::vector<mail::Schedule>> collect_schedules(db::Statement& statement)
{
  std::vector<mail::Schedule> out;
  TRY(statement.for_each_row([&](const db::Statement& row) { out.push_back(schedule_from_row(row)); }));
  return out;
}

// The one schedule `statement` selects, if any.
Result<std::optional<mail::Schedule>> one_schedule(db::Statement& statement)
{
  TRY_ASSIGN(const bool found, statement.step());
  if (!found) {
    return std::optional<mail::Schedule>();
  }
  db::ResetGuard reset(statement);
  return std::optional<mail::Schedule>(schedule_from_row(statement));
}

// Whether an idempotency key's replay asks for the same one-shot: the same message, as send's
// replay rule says. The due time is not compared: a replayed `--in 1h` resolves to a later instant,
// and the one scheduled first keeps its time.
bool same_request(const mail::ScheduleSpec& a, const mail::ScheduleSpec& b)
{
  const mail::ScheduleMessage& x = a.message;
  const mail::ScheduleMessage& y = b.message;
  return a.rule.kind == b.rule.kind && x.to == y.to && x.cc == y.cc && x.subject == y.subject &&
         x.body == y.body && x.priority == y.priority && x.type == y.type && x.ack == y.ack && x.ttl == y.ttl;
}

mail::EventDraft changed_event(const mail::Schedule& schedule, const mail::Mailbox& actor)
{
  return mail::EventDraft{mail::EventType::schedule_changed, "", schedule.spec.from, actor};
}

} // namespace

Result<mail::Schedule> SqlStore::live_schedule(db::Connection& c, const mail::Mailbox& from,
                                               const std::string& name)
{
  const ScheduleQueries& sql = m_sql.schedules;
  std::optional<mail::Schedule> found;
  {
    TRY_ASSIGN(db::Statement * by_name, c.cached(sql.by_name));
    TRY(by_name->bind(from, name));
    TRY_ASSIGN(found, one_schedule(*by_name));
  }
  if (!found || found->ended_at) {
    TRY_ASSIGN(db::Statement * names, c.cached(sql.names));
    TRY(names->bind(from));
    std::vector<std::string> known;
    TRY(names->for_each_row(
        [&](const db::Statement& row) { known.push_back(row.get<std::string>("name")); }));
    return schedule_not_found(from, name, known);
  }
  // Again by id, which locks the row on PostgreSQL for the rest of the transaction.
  TRY_ASSIGN(db::Statement * by_id, c.cached(sql.by_id));
  TRY(by_id->bind(found->id));
  TRY_ASSIGN(std::optional<mail::Schedule> locked, one_schedule(*by_id));
  if (!locked) {
    return schedule_not_found(from, name, {});
  }
  return std::move(*locked);
}

Result<void> SqlStore::update_schedule(db::Connection& c, const mail::Schedule& schedule)
{
  TRY_ASSIGN(db::Statement * update, c.cached(m_sql.schedules.update));
  const ScheduleColumns columns(schedule);
  TRY(columns.bind_update(*update));
  TRY(update->exec());
  return {};
}

Result<std::map<mail::Mailbox, std::string>>
SqlStore::request_states(db::Connection& c, const mail::MessageId& id, mail::UnixMillis at)
{
  std::map<mail::Mailbox, std::string> states;
  TRY_ASSIGN(db::Statement * requests, c.cached(m_sql.schedules.requests));
  TRY(requests->bind(id));
  TRY(requests->for_each_row([&](const db::Statement& row) {
    const auto expires_at = row.get<std::optional<std::int64_t>>("expires_at");
    std::optional<std::string> state;
    if (const auto stored = request_state_of(row, expires_at && *expires_at <= at)) {
      // The delivery's own request state (mail/request.hpp): declined, failed and canceled
      // requests are closed, and one waiting for an answer (input_required) stays open.
      state = std::string(mail::to_string(*stored));
    } else {
      // No state kept (a delivery older than the request life, or no reply expected).
      const auto type = m_policy.types.resolve(row.get<std::string>("type"));
      state = schedule::request_state_of(type.ok() && type->expects_reply, row.get<bool>("replied"),
                                         !row.is_null(row.column_index("read_at")), expires_at, at);
    }
    if (state) {
      states[row.get<std::string>("recipient")] = *state;
    }
  }));
  return states;
}

Result<mail::ScheduleAdded> SqlStore::add_schedule(const mail::ScheduleSpec& spec)
{
  const ScheduleQueries& sql = m_sql.schedules;
  return write([&](db::Connection& c) -> Result<mail::ScheduleAdded> {
    TRY_ASSIGN(const mail::UnixMillis now, this->now());
    if (spec.idempotency_key) {
      TRY_ASSIGN(db::Statement * by_key, c.cached(sql.by_key));
      TRY(by_key->bind(spec.from, *spec.idempotency_key));
      TRY_ASSIGN(std::optional<mail::Schedule> earlier, one_schedule(*by_key));
      if (earlier) {
        if (!same_request(earlier->spec, spec)) {
          return make_error(
              ErrorCode::conflict,
              fmt::format("idempotency key \"{}\" was already used for schedule {} with other content",
                          text::cap_for_echo(*spec.idempotency_key), earlier->spec.name),
              "use a new key for a new message");
        }
        return mail::ScheduleAdded{std::move(*earlier), true};
      }
    }
    {
      TRY_ASSIGN(db::Statement * by_name, c.cached(sql.by_name));
      TRY(by_name->bind(spec.from, spec.name));
      TRY_ASSIGN(std::optional<mail::Schedule> existing, one_schedule(*by_name));
      if (existing && !existing->ended_at) {
        return make_error(
            ErrorCode::conflict, fmt::format("{} already has a schedule named \"{}\"", spec.from, spec.name),
            fmt::format("change it with: mailroom schedule edit {}, or pick another name", spec.name));
      }
    }
    TRY_ASSIGN(schedule::FirstSlot first, schedule::first_slot(spec.rule, now));
    mail::Schedule schedule;
    schedule.id = mail::new_message_id("sch");
    schedule.spec = spec;
    schedule.spec.rule = std::move(first.rule);
    schedule.created_at = now;
    schedule.next_at = first.next_at;
    TRY_ASSIGN(db::Statement * insert, c.cached(sql.insert));
    const ScheduleColumns columns(schedule);
    TRY(columns.bind_insert(*insert));
    TRY(insert->exec());
    TRY(record_events(c, now, {changed_event(schedule, spec.created_by)}));
    return mail::ScheduleAdded{std::move(schedule), false};
  });
}

Result<std::vector<mail::Schedule>> SqlStore::schedules(const mail::ScheduleQuery& query)
{
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  TRY_ASSIGN(db::Statement * list, reader->cached(m_sql.schedules.list));
  TRY(list->bind(query.from, query.ended));
  return collect_schedules(*list);
}

Result<mail::Schedule> SqlStore::schedule(const mail::Mailbox& from, const std::string& name,
                                          std::size_t history)
{
  const ScheduleQueries& sql = m_sql.schedules;
  TRY_ASSIGN(const mail::UnixMillis now, this->now());
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  std::optional<mail::Schedule> found;
  {
    TRY_ASSIGN(db::Statement * by_name, reader->cached(sql.by_name));
    TRY(by_name->bind(from, name));
    TRY_ASSIGN(found, one_schedule(*by_name));
  }
  if (!found) {
    TRY_ASSIGN(db::Statement * names, reader->cached(sql.names));
    TRY(names->bind(from));
    std::vector<std::string> known;
    TRY(names->for_each_row(
        [&](const db::Statement& row) { known.push_back(row.get<std::string>("name")); }));
    return schedule_not_found(from, name, known);
  }
  {
    TRY_ASSIGN(db::Statement * firings, reader->cached(sql.firings));
    TRY(firings->bind(found->id, static_cast<std::int64_t>(history)));
    TRY(firings->for_each_row(
        [&](const db::Statement& row) { found->firings.push_back(firing_from_row(row)); }));
  }
  for (mail::Firing& firing : found->firings) {
    if (firing.message_id) {
      TRY_ASSIGN(firing.request_states, request_states(*reader, *firing.message_id, now));
    }
  }
  return std::move(*found);
}

Result<mail::Schedule> SqlStore::change_schedule(const mail::ScheduleChange& change)
{
  using Kind = mail::ScheduleChange::Kind;
  return write([&](db::Connection& c) -> Result<mail::Schedule> {
    TRY_ASSIGN(const mail::UnixMillis now, this->now());
    TRY_ASSIGN(mail::Schedule schedule, live_schedule(c, change.from, change.name));
    const std::optional<mail::UnixMillis> recorded =
        schedule.last ? std::optional(schedule.last->slot) : std::nullopt;
    switch (change.kind) {
    case Kind::pause:
      if (schedule.paused_at) {
        return schedule; // already paused: nothing changes
      }
      schedule.paused_at = now;
      break;
    case Kind::resume: {
      if (!schedule.paused_at) {
        return schedule;
      }
      // Slots that passed while paused are neither recorded nor caught up.
      TRY_ASSIGN(const schedule::Evaluator evaluator, schedule::evaluator_of(schedule.spec.rule));
      schedule.paused_at.reset();
      if (schedule.spec.rule.kind != mail::RuleKind::at) {
        schedule.next_at = schedule::next_slot_from(evaluator, now, recorded);
      }
      if (!schedule.next_at) {
        schedule.ended_at = now;
        schedule.end_reason = "done";
      }
      break;
    }
    case Kind::cancel:
      schedule.ended_at = now;
      schedule.end_reason = "canceled";
      schedule.next_at.reset();
      break;
    case Kind::edit: {
      mail::ScheduleSpec spec = *change.edited;
      spec.from = schedule.spec.from;
      spec.name = schedule.spec.name;
      spec.created_by = schedule.spec.created_by;
      if (spec.rule.kind == mail::RuleKind::every && spec.rule.anchor == 0) {
        spec.rule.anchor = spec.rule.start ? *spec.rule.start : now / 1000 * 1000 + spec.rule.every;
      }
      TRY_ASSIGN(const schedule::Evaluator evaluator, schedule::evaluator_of(spec.rule));
      const auto next = spec.rule.kind == mail::RuleKind::at
                            ? (recorded ? std::nullopt : std::optional(spec.rule.at))
                            : schedule::next_slot_from(evaluator, now - 1, recorded);
      if (!next) {
        return make_error(ErrorCode::usage,
                          fmt::format("schedule {} would have no slot left", schedule.spec.name),
                          "check --until and the rule");
      }
      schedule.spec = std::move(spec);
      schedule.next_at = next;
      break;
    }
    }
    TRY(update_schedule(c, schedule));
    TRY(record_events(c, now, {changed_event(schedule, change.acted_by)}));
    return schedule;
  });
}

Result<void> SqlStore::record_firer(mail::FirerKind kind)
{
  const ScheduleQueries& sql = m_sql.schedules;
  return write([&](db::Connection& c) -> Result<void> {
    TRY_ASSIGN(const mail::UnixMillis now, this->now());
    TRY_ASSIGN(db::Statement * beat, c.cached(sql.beat));
    TRY(beat->bind(m_origin.host, m_origin.pid, mail::to_string(kind), now));
    TRY(beat->exec());
    TRY_ASSIGN(db::Statement * prune, c.cached(sql.prune_beats));
    TRY(prune->bind(now - mail::k_day_ms));
    TRY(prune->exec());
    return {};
  });
}

Result<mail::FirerStatus> SqlStore::firer_status()
{
  mail::FirerStatus status;
  TRY_ASSIGN(status.now, this->now());
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  TRY_ASSIGN(db::Statement * select, reader->cached(m_sql.schedules.firer_status));
  TRY_ASSIGN(const bool row, select->step());
  if (row) {
    db::ResetGuard reset(*select);
    status.last_beat = select->get<std::optional<std::int64_t>>("last_beat");
    status.next_due = select->get<std::optional<std::int64_t>>("next_due");
  }
  return status;
}

} // namespace mailroom::providers::sqlstore
