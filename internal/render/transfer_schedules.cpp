// The export records of schedules and firings (docs/export-format.md): every column a store keeps,
// so export → import → export is lossless.

#include "mail/duration.hpp"
#include "render/render.hpp"
#include "render/transfer_fields.hpp"

namespace mailroom::render::detail {

namespace {

using Json = nlohmann::ordered_json;

Json optional_integer(const std::optional<std::int64_t>& value)
{
  return value ? Json(*value) : Json(nullptr);
}

template <typename E>
Result<E> choice(const RecordFields& f, const std::string& name, std::optional<E> (*parse)(std::string_view),
                 std::string_view expected)
{
  TRY_ASSIGN(const std::string text, f.text(name));
  const auto parsed = parse(text);
  if (!parsed) {
    return f.wrong(name, expected);
  }
  return *parsed;
}

} // namespace

Json encode_schedule_record(const mail::ScheduleRecord& record)
{
  const mail::Schedule& s = record.schedule;
  const mail::ScheduleRule& r = s.spec.rule;
  const mail::ScheduleMessage& m = s.spec.message;
  Json j;
  j["kind"] = "schedule";
  j["id"] = s.id;
  j["from"] = s.spec.from;
  put_text(j, "name", s.spec.name);
  j["created_at"] = format_rfc3339(s.created_at);
  j["created_by"] = s.spec.created_by;
  j["rule_kind"] = std::string(mail::to_string(r.kind));
  j["at"] = r.kind == mail::RuleKind::at ? time_value(r.at) : Json(nullptr);
  j["every_ms"] = r.kind == mail::RuleKind::every ? Json(r.every) : Json(nullptr);
  j["anchor"] = r.kind == mail::RuleKind::every ? time_value(r.anchor) : Json(nullptr);
  j["cron"] = r.kind == mail::RuleKind::cron ? Json(r.cron) : Json(nullptr);
  j["tz"] = r.tz;
  j["start"] = time_value(r.start);
  j["until"] = time_value(r.until);
  j["catch_up"] = std::string(mail::to_string(s.spec.catch_up));
  j["overlap"] = std::string(mail::to_string(s.spec.overlap));
  j["to"] = names(m.to);
  j["cc"] = names(m.cc);
  put_optional_text(j, "subject", m.subject);
  put_text(j, "body", m.body);
  j["priority"] = static_cast<int>(m.priority);
  j["type"] = m.type;
  j["ack"] = m.ack;
  j["ttl_ms"] = optional_integer(m.ttl);
  j["notify"] = m.notify;
  put_optional_text(j, "idempotency_key", s.spec.idempotency_key);
  j["next_at"] = time_value(s.next_at);
  j["paused_at"] = time_value(s.paused_at);
  j["ended_at"] = time_value(s.ended_at);
  j["end_reason"] = s.end_reason.empty() ? Json(nullptr) : Json(s.end_reason);
  j["last_run_now"] = time_value(s.last_run_now);
  j["escalated"] = s.escalated;
  j["last_slot"] = s.last ? time_value(s.last->slot) : Json(nullptr);
  j["last_kind"] = s.last ? Json(std::string(mail::to_string(s.last->kind))) : Json(nullptr);
  return j;
}

Json encode_schedule_record(const mail::FiringRecord& record)
{
  const mail::Firing& f = record.firing;
  Json j;
  j["kind"] = "firing";
  j["schedule"] = record.schedule;
  j["slot"] = format_rfc3339(f.slot);
  j["firing_kind"] = std::string(mail::to_string(f.kind));
  j["fired_at"] = format_rfc3339(f.fired_at);
  j["outcome"] = std::string(mail::to_string(f.outcome));
  j["message_id"] = f.message_id ? Json(*f.message_id) : Json(nullptr);
  j["count"] = f.count;
  j["last_slot"] = time_value(f.last_slot);
  j["error_code"] = f.error_code;
  put_text(j, "detail", f.detail);
  return j;
}

Result<mail::Record> decode_schedule(const RecordFields& f)
{
  mail::ScheduleRecord record;
  mail::Schedule& s = record.schedule;
  mail::ScheduleRule& r = s.spec.rule;
  mail::ScheduleMessage& m = s.spec.message;
  TRY_ASSIGN(s.id, f.text("id"));
  TRY_ASSIGN(s.spec.from, f.text("from"));
  TRY_ASSIGN(s.spec.name, f.text("name"));
  TRY_ASSIGN(s.created_at, f.time("created_at"));
  TRY_ASSIGN(s.spec.created_by, f.text("created_by"));
  TRY_ASSIGN(r.kind, choice<mail::RuleKind>(f, "rule_kind", &mail::parse_rule_kind, "at, every or cron"));
  TRY_ASSIGN(const auto at, f.optional_time("at"));
  TRY_ASSIGN(const auto anchor, f.optional_time("anchor"));
  TRY_ASSIGN(const auto cron, f.optional_text("cron"));
  TRY_ASSIGN(const auto every, f.optional_integer("every_ms"));
  r.every = every.value_or(0);
  r.at = at.value_or(0);
  r.anchor = anchor.value_or(0);
  r.cron = cron.value_or("");
  TRY_ASSIGN(r.tz, f.text("tz"));
  TRY_ASSIGN(r.start, f.optional_time("start"));
  TRY_ASSIGN(r.until, f.optional_time("until"));
  TRY_ASSIGN(s.spec.catch_up, choice<mail::CatchUp>(f, "catch_up", &mail::parse_catch_up, "latest or skip"));
  TRY_ASSIGN(s.spec.overlap, choice<mail::Overlap>(f, "overlap", &mail::parse_overlap, "skip or send"));
  TRY_ASSIGN(m.to, f.names("to"));
  TRY_ASSIGN(m.cc, f.names("cc"));
  TRY_ASSIGN(m.subject, f.optional_text("subject"));
  TRY_ASSIGN(m.body, f.text("body"));
  TRY_ASSIGN(const std::int64_t priority, f.integer("priority"));
  if (priority < 0 || priority > 4) {
    return f.wrong("priority", "0 to 4");
  }
  m.priority = static_cast<mail::Priority>(priority);
  TRY_ASSIGN(m.type, f.text("type"));
  TRY_ASSIGN(m.ack, f.flag("ack"));
  TRY_ASSIGN(m.ttl, f.optional_integer("ttl_ms"));
  TRY_ASSIGN(m.notify, f.flag("notify"));
  TRY_ASSIGN(s.spec.idempotency_key, f.optional_text("idempotency_key"));
  TRY_ASSIGN(s.next_at, f.optional_time("next_at"));
  TRY_ASSIGN(s.paused_at, f.optional_time("paused_at"));
  TRY_ASSIGN(s.ended_at, f.optional_time("ended_at"));
  TRY_ASSIGN(const auto reason, f.optional_text("end_reason"));
  s.end_reason = reason.value_or("");
  TRY_ASSIGN(s.last_run_now, f.optional_time("last_run_now"));
  TRY_ASSIGN(s.escalated, f.flag("escalated"));
  TRY_ASSIGN(const auto last_slot, f.optional_time("last_slot"));
  TRY_ASSIGN(const auto last_kind, f.optional_text("last_kind"));
  if (last_slot) {
    const auto kind = mail::parse_firing_kind(last_kind.value_or(""));
    if (!kind) {
      return f.wrong("last_kind", "slot or run_now");
    }
    s.last = mail::Firing{*last_slot, *kind};
  }
  return mail::Record(std::move(record));
}

Result<mail::Record> decode_firing(const RecordFields& f)
{
  mail::FiringRecord record;
  mail::Firing& firing = record.firing;
  TRY_ASSIGN(record.schedule, f.text("schedule"));
  TRY_ASSIGN(firing.slot, f.time("slot"));
  TRY_ASSIGN(firing.kind,
             choice<mail::FiringKind>(f, "firing_kind", &mail::parse_firing_kind, "slot or run_now"));
  TRY_ASSIGN(firing.fired_at, f.time("fired_at"));
  TRY_ASSIGN(firing.outcome,
             choice<mail::FiringOutcome>(f, "outcome", &mail::parse_firing_outcome,
                                         "sent, partial, skipped_open, missed, failed or suppressed"));
  TRY_ASSIGN(firing.message_id, f.optional_text("message_id"));
  TRY_ASSIGN(firing.count, f.integer("count"));
  TRY_ASSIGN(firing.last_slot, f.optional_time("last_slot"));
  TRY_ASSIGN(firing.error_code, f.text("error_code"));
  TRY_ASSIGN(firing.detail, f.text("detail"));
  return mail::Record(std::move(record));
}

} // namespace mailroom::render::detail
