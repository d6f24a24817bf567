// The schedule and firing records of export and import (mail/transfer.hpp): what a store may not
// hold, and which fields of two records with one identity differ.

#include <fmt/format.h>

#include "mail/address.hpp"
#include "mail/ids.hpp"
#include "mail/limits.hpp"
#include "mail/transfer.hpp"
#include "mail/transfer_checks.hpp"
#include "mail/types.hpp"
#include "text/strings.hpp"

namespace mailroom::mail {

using transfer_checks::compare_field;

Result<void> check_schedule_record(const ScheduleRecord& record)
{
  const Schedule& s = record.schedule;
  if (!is_valid_id(s.id)) {
    return transfer_checks::bad_field("schedule", "id",
                                      fmt::format("is not an id: \"{}\"", text::cap_for_echo(s.id, 80)));
  }
  if (!is_valid_mailbox(s.spec.from)) {
    return transfer_checks::bad_field("schedule", "from", "is not a mailbox");
  }
  if (s.spec.name.empty() || s.spec.name.size() > 64 || !is_valid_id(s.spec.name)) {
    return transfer_checks::bad_field("schedule", "name", "is not a schedule name");
  }
  if (!is_valid_type_name(s.spec.message.type)) {
    return transfer_checks::bad_field("schedule", "type", "is not a type name");
  }
  if (s.spec.message.body.size() > k_max_body_bytes) {
    return transfer_checks::bad_field("schedule", "body", "is larger than a body may be");
  }
  if (s.spec.rule.kind == RuleKind::every && s.spec.rule.every < k_second_ms) {
    return transfer_checks::bad_field("schedule", "rule", "has an every shorter than 1s");
  }
  if (s.spec.rule.kind == RuleKind::cron && s.spec.rule.cron.empty()) {
    return transfer_checks::bad_field("schedule", "rule", "has no cron expression");
  }
  return {};
}

Result<void> check_firing_record(const FiringRecord& record)
{
  if (!is_valid_id(record.schedule)) {
    return transfer_checks::bad_field("firing", "schedule", "is not an id");
  }
  if (record.firing.message_id && !is_valid_id(*record.firing.message_id)) {
    return transfer_checks::bad_field("firing", "message_id", "is not an id");
  }
  if (record.firing.count < 1) {
    return transfer_checks::bad_field("firing", "count", "must be at least 1");
  }
  return {};
}

std::vector<std::string> differences(const ScheduleRecord& a, const ScheduleRecord& b)
{
  const Schedule& x = a.schedule;
  const Schedule& y = b.schedule;
  std::vector<std::string> out;
  compare_field(out, "from", x.spec.from, y.spec.from);
  compare_field(out, "name", x.spec.name, y.spec.name);
  compare_field(out, "created_at", x.created_at, y.created_at);
  compare_field(out, "created_by", x.spec.created_by, y.spec.created_by);
  const ScheduleRule& r = x.spec.rule;
  const ScheduleRule& q = y.spec.rule;
  if (r.kind != q.kind || r.at != q.at || r.every != q.every || r.anchor != q.anchor || r.cron != q.cron ||
      r.tz != q.tz || r.start != q.start || r.until != q.until) {
    out.emplace_back("rule");
  }
  compare_field(out, "catch_up", x.spec.catch_up, y.spec.catch_up);
  compare_field(out, "overlap", x.spec.overlap, y.spec.overlap);
  const ScheduleMessage& m = x.spec.message;
  const ScheduleMessage& n = y.spec.message;
  compare_field(out, "to", m.to, n.to);
  compare_field(out, "cc", m.cc, n.cc);
  compare_field(out, "subject", m.subject, n.subject);
  compare_field(out, "body", m.body, n.body);
  compare_field(out, "priority", m.priority, n.priority);
  compare_field(out, "type", m.type, n.type);
  compare_field(out, "ack", m.ack, n.ack);
  compare_field(out, "ttl_ms", m.ttl, n.ttl);
  compare_field(out, "notify", m.notify, n.notify);
  compare_field(out, "idempotency_key", x.spec.idempotency_key, y.spec.idempotency_key);
  compare_field(out, "next_at", x.next_at, y.next_at);
  compare_field(out, "paused_at", x.paused_at, y.paused_at);
  compare_field(out, "ended_at", x.ended_at, y.ended_at);
  compare_field(out, "end_reason", x.end_reason, y.end_reason);
  compare_field(out, "last_run_now", x.last_run_now, y.last_run_now);
  compare_field(out, "escalated", x.escalated, y.escalated);
  const auto last_of = [](const Schedule& s) {
    return s.last ? std::optional(std::pair(s.last->slot, s.last->kind)) : std::nullopt;
  };
  compare_field(out, "last", last_of(x), last_of(y));
  return out;
}

std::vector<std::string> differences(const FiringRecord& a, const FiringRecord& b)
{
  const Firing& x = a.firing;
  const Firing& y = b.firing;
  std::vector<std::string> out;
  compare_field(out, "schedule", a.schedule, b.schedule);
  compare_field(out, "slot", x.slot, y.slot);
  compare_field(out, "kind", x.kind, y.kind);
  compare_field(out, "fired_at", x.fired_at, y.fired_at);
  compare_field(out, "outcome", x.outcome, y.outcome);
  compare_field(out, "message_id", x.message_id, y.message_id);
  compare_field(out, "count", x.count, y.count);
  compare_field(out, "last_slot", x.last_slot, y.last_slot);
  compare_field(out, "error_code", x.error_code, y.error_code);
  compare_field(out, "detail", x.detail, y.detail);
  return out;
}

} // namespace mailroom::mail
