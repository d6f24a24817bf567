#include "sqlstore/schedule_rows.hpp"

#include <tuple>

#include <fmt/format.h>

#include "mail/address.hpp"
#include "sqlstore/rows.hpp"
#include "text/strings.hpp"

namespace mailroom::providers::sqlstore {

mail::Schedule schedule_from_row(const db::Statement& row)
{
  mail::Schedule s;
  s.id = row.get<std::string>("id");
  s.spec.from = row.get<std::string>("sender");
  s.spec.name = row.get<std::string>("name");
  s.created_at = row.get<std::int64_t>("created_at");
  s.spec.created_by = row.get<std::string>("created_by");
  mail::ScheduleRule& r = s.spec.rule;
  r.kind = mail::parse_rule_kind(row.get<std::string>("rule_kind")).value_or(mail::RuleKind::at);
  r.at = row.get<std::optional<std::int64_t>>("at_ms").value_or(0);
  r.every = row.get<std::optional<std::int64_t>>("every_ms").value_or(0);
  r.anchor = row.get<std::optional<std::int64_t>>("anchor").value_or(0);
  r.cron = row.get<std::optional<std::string>>("cron").value_or("");
  r.tz = row.get<std::string>("tz");
  r.start = row.get<std::optional<std::int64_t>>("start_at");
  r.until = row.get<std::optional<std::int64_t>>("until_at");
  s.spec.catch_up = mail::parse_catch_up(row.get<std::string>("catch_up")).value_or(mail::CatchUp::latest);
  s.spec.overlap = mail::parse_overlap(row.get<std::string>("overlap")).value_or(mail::Overlap::skip);
  mail::ScheduleMessage& m = s.spec.message;
  m.to = split_names(row.get<std::string>("to_list"));
  m.cc = split_names(row.get<std::string>("cc_list"));
  m.subject = row.get<std::optional<std::string>>("subject");
  m.body = row.get<std::string>("body");
  m.priority = static_cast<mail::Priority>(row.get<int>("priority"));
  m.type = row.get<std::string>("type");
  m.ack = row.get<bool>("ack");
  m.ttl = row.get<std::optional<std::int64_t>>("ttl_ms");
  m.notify = row.get<bool>("notify");
  s.spec.idempotency_key = row.get<std::optional<std::string>>("idempotency_key");
  s.next_at = row.get<std::optional<std::int64_t>>("next_at");
  s.paused_at = row.get<std::optional<std::int64_t>>("paused_at");
  s.ended_at = row.get<std::optional<std::int64_t>>("ended_at");
  s.end_reason = row.get<std::optional<std::string>>("end_reason").value_or("");
  s.last_run_now = row.get<std::optional<std::int64_t>>("last_run_now");
  s.escalated = row.get<bool>("escalated");
  if (const auto slot = row.get<std::optional<std::int64_t>>("last_slot")) {
    mail::Firing last;
    last.slot = *slot;
    last.kind = mail::parse_firing_kind(row.get<std::string>("last_kind")).value_or(mail::FiringKind::slot);
    last.fired_at = row.get<std::int64_t>("last_fired_at");
    last.outcome = mail::parse_firing_outcome(row.get<std::string>("last_outcome"))
                       .value_or(mail::FiringOutcome::failed);
    last.message_id = row.get<std::optional<std::string>>("last_message_id");
    last.count = row.get<std::int64_t>("last_slot_count");
    last.last_slot = row.get<std::optional<std::int64_t>>("last_through_slot");
    last.error_code = row.get<std::string>("last_error_code");
    last.detail = row.get<std::string>("last_detail");
    s.last = std::move(last);
  }
  return s;
}

mail::Firing firing_from_row(const db::Statement& row)
{
  mail::Firing f;
  f.slot = row.get<std::int64_t>("slot");
  f.kind = mail::parse_firing_kind(row.get<std::string>("kind")).value_or(mail::FiringKind::slot);
  f.fired_at = row.get<std::int64_t>("fired_at");
  f.outcome =
      mail::parse_firing_outcome(row.get<std::string>("outcome")).value_or(mail::FiringOutcome::failed);
  f.message_id = row.get<std::optional<std::string>>("message_id");
  f.count = row.get<std::int64_t>("slot_count");
  f.last_slot = row.get<std::optional<std::int64_t>>("through_slot");
  f.error_code = row.get<std::string>("error_code");
  f.detail = row.get<std::string>("detail");
  return f;
}

ScheduleColumns::ScheduleColumns(const mail::Schedule& s)
    : m_schedule(s), m_kind(mail::to_string(s.spec.rule.kind)), m_catch_up(mail::to_string(s.spec.catch_up)),
      m_overlap(mail::to_string(s.spec.overlap)), m_to(join_names(s.spec.message.to)),
      m_cc(join_names(s.spec.message.cc))
{
  if (s.last) {
    m_last_kind = std::string(mail::to_string(s.last->kind));
  }
}

// The changing columns' values, in schedule_sql.hpp's order.
auto ScheduleColumns::changing() const
{
  const mail::Schedule& s = m_schedule;
  const mail::ScheduleRule& r = s.spec.rule;
  const mail::ScheduleMessage& m = s.spec.message;
  const bool at = r.kind == mail::RuleKind::at;
  const bool every = r.kind == mail::RuleKind::every;
  const bool cron = r.kind == mail::RuleKind::cron;
  using Text = std::optional<std::string_view>;
  using Millis = std::optional<std::int64_t>;
  return std::make_tuple(
      std::string_view(m_kind), at ? Millis(r.at) : Millis(), every ? Millis(r.every) : Millis(),
      every ? Millis(r.anchor) : Millis(), cron ? Text(r.cron) : Text(), std::string_view(r.tz), r.start,
      r.until, std::string_view(m_catch_up), std::string_view(m_overlap), std::string_view(m_to),
      std::string_view(m_cc), m.subject ? Text(*m.subject) : Text(), db::Blob{m.body},
      static_cast<int>(m.priority), std::string_view(m.type), m.ack, m.ttl, m.notify,
      s.spec.idempotency_key ? Text(*s.spec.idempotency_key) : Text(), s.next_at, s.paused_at, s.ended_at,
      s.end_reason.empty() ? Text() : Text(s.end_reason), s.last_run_now, s.escalated,
      s.last ? Millis(s.last->slot) : Millis(), m_last_kind ? Text(*m_last_kind) : Text());
}

Result<void> ScheduleColumns::bind_insert(db::Statement& statement) const
{
  const mail::Schedule& s = m_schedule;
  return std::apply(
      [&](const auto&... values) {
        return statement.bind(std::string_view(s.id), std::string_view(s.spec.from),
                              std::string_view(s.spec.name), s.created_at,
                              std::string_view(s.spec.created_by), values...);
      },
      changing());
}

Result<void> ScheduleColumns::bind_update(db::Statement& statement) const
{
  return std::apply(
      [&](const auto&... values) { return statement.bind(std::string_view(m_schedule.id), values...); },
      changing());
}

Result<void> bind_firing(db::Statement& statement, const std::string& id, const mail::Firing& f)
{
  return statement.bind(std::string_view(id), f.slot, mail::to_string(f.kind), f.fired_at,
                        mail::to_string(f.outcome), f.message_id, f.count, f.last_slot,
                        std::string_view(f.error_code), std::string_view(f.detail));
}

Error schedule_not_found(const mail::Mailbox& from, const std::string& name,
                         const std::vector<std::string>& names)
{
  Error error = make_error(ErrorCode::not_found,
                           fmt::format("schedule \"{}\" of {} not found", text::cap_for_echo(name), from));
  error.input = name;
  error.suggestions = mail::suggest_mailboxes(name, names, 3);
  if (!error.suggestions.empty()) {
    error.hint = fmt::format("did you mean \"{}\"? (mailroom schedule list)", error.suggestions.front());
  } else {
    error.hint = "see mailroom schedule list";
  }
  return error;
}

} // namespace mailroom::providers::sqlstore
