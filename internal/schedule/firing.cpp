#include "schedule/firing.hpp"

#include <fmt/format.h>

#include "mail/address.hpp"
#include "schedule/times.hpp"

namespace mailroom::schedule {

namespace {

constexpr mail::UnixMillis k_firing_second_ms = 1000;
// A run that finds more due slots than this (a minutely cron after years without a firer) stops
// counting them and jumps to the present.
constexpr std::int64_t k_max_counted_slots = 1000000;
constexpr mail::UnixMillis k_jump_margin = 2 * 24 * 3600 * k_firing_second_ms;

Rule rule_from(const mail::ScheduleRule& stored)
{
  Rule rule;
  rule.at = stored.at;
  rule.every = stored.every;
  rule.anchor = stored.anchor;
  rule.cron_text = stored.cron;
  rule.start = stored.start;
  rule.until = stored.until;
  switch (stored.kind) {
  case mail::RuleKind::at:
    rule.kind = Rule::Kind::at;
    break;
  case mail::RuleKind::every:
    rule.kind = Rule::Kind::every;
    break;
  case mail::RuleKind::cron:
    rule.kind = Rule::Kind::cron;
    break;
  }
  return rule;
}

} // namespace

Result<Zone> ZoneCache::get(const std::string& name)
{
  if (const auto found = m_zones.find(name); found != m_zones.end()) {
    return found->second;
  }
  TRY_ASSIGN(Zone zone, Zone::load(name, m_directory));
  m_zones.emplace(name, zone);
  return zone;
}

Result<Evaluator> evaluator_of(const mail::ScheduleRule& stored, ZoneCache& zones)
{
  TRY_ASSIGN(Zone zone, zones.get(stored.tz));
  Rule rule = rule_from(stored);
  if (stored.kind == mail::RuleKind::cron) {
    TRY_ASSIGN(rule.cron, parse_cron(stored.cron));
  }
  if (stored.kind == mail::RuleKind::every && stored.every < k_firing_second_ms) {
    return make_error(ErrorCode::usage, "--every must be at least 1s");
  }
  return Evaluator{std::move(zone), std::move(rule)};
}

Result<Evaluator> evaluator_of(const mail::ScheduleRule& stored)
{
  ZoneCache zones;
  return evaluator_of(stored, zones);
}

Result<FirstSlot> first_slot(mail::ScheduleRule rule, mail::UnixMillis now)
{
  if (rule.kind == mail::RuleKind::every) {
    rule.anchor =
        rule.start ? *rule.start : floor_div(now, k_firing_second_ms) * k_firing_second_ms + rule.every;
  }
  TRY_ASSIGN(const Evaluator evaluator, evaluator_of(rule));
  const mail::UnixMillis after = rule.kind == mail::RuleKind::at ? std::min(rule.at, now) - 1 : now;
  const auto next = next_slot(evaluator.rule, evaluator.zone, after);
  if (!next) {
    return make_error(ErrorCode::usage,
                      rule.until ? "the schedule has no slot before --until" : "the schedule never fires",
                      rule.kind == mail::RuleKind::cron ? "check the day-of-month and month fields" : "");
  }
  return FirstSlot{std::move(rule), *next};
}

std::optional<mail::UnixMillis> next_slot_from(const Evaluator& evaluator, mail::UnixMillis now,
                                               std::optional<mail::UnixMillis> last_recorded)
{
  const mail::UnixMillis after = last_recorded ? std::max(now, *last_recorded) : now;
  return next_slot(evaluator.rule, evaluator.zone, after);
}

DuePlan plan_due(const Evaluator& evaluator, mail::CatchUp catch_up, mail::UnixMillis next_at,
                 mail::UnixMillis now)
{
  DuePlan plan;
  plan.next_at = next_at;
  if (next_at > now) {
    return plan;
  }
  const Rule& rule = evaluator.rule;
  std::int64_t count = 1;
  mail::UnixMillis last = next_at;
  mail::UnixMillis before_last = next_at;
  if (rule.kind == Rule::Kind::every) {
    // Arithmetic: slots are anchor + k × every.
    const mail::UnixMillis bound = rule.until ? std::min(now, *rule.until) : now;
    const std::int64_t more = bound >= next_at ? (bound - next_at) / rule.every : 0;
    count = 1 + more;
    last = next_at + more * rule.every;
    before_last = last - rule.every;
  } else if (rule.kind == Rule::Kind::cron) {
    for (auto following = next_slot(rule, evaluator.zone, last); following && *following <= now;
         following = next_slot(rule, evaluator.zone, last)) {
      before_last = last;
      last = *following;
      ++count;
      if (count % k_max_counted_slots == 0 && last < now - k_jump_margin) {
        // Years without a firer: stop stepping through them (the count is then a lower bound) and
        // go on from the slots of the last two days.
        const auto recent = next_slot(rule, evaluator.zone, now - k_jump_margin);
        if (recent && *recent <= now) {
          before_last = last;
          last = *recent;
          ++count;
        }
      }
    }
  }
  const bool several = count > 1;
  if (several && catch_up == mail::CatchUp::skip) {
    plan.missed = MissedRun{count, next_at, last};
  } else {
    if (several) {
      plan.missed = MissedRun{count - 1, next_at, before_last};
    }
    plan.fire = last;
  }
  plan.next_at = next_slot(rule, evaluator.zone, last);
  return plan;
}

bool skipped_for_overlap(mail::Overlap overlap, bool expects_reply, bool last_request_open)
{
  return overlap == mail::Overlap::skip && expects_reply && last_request_open;
}

std::optional<std::string> request_state_of(bool expects_reply, bool replied, bool read,
                                            std::optional<mail::UnixMillis> expires_at, mail::UnixMillis at)
{
  if (!expects_reply) {
    return std::nullopt;
  }
  if (replied) {
    return "completed";
  }
  if (expires_at && *expires_at <= at) {
    return "expired";
  }
  return read ? "working" : "submitted";
}

bool is_open_state(const std::string& state)
{
  return state == "submitted" || state == "working" || state == "input_required";
}

Recipients usable_recipients(const mail::ScheduleSpec& spec, const mail::Directory& directory,
                             const mail::MailPolicy& policy)
{
  Recipients out;
  for (const auto& [addresses, kept] :
       {std::pair{&spec.message.to, &out.to}, std::pair{&spec.message.cc, &out.cc}}) {
    for (const std::string& address : *addresses) {
      // Whether this one address would be refused as unknown now (retired or never registered),
      // by the same rule a send applies.
      const auto alone = mail::resolve_audience(spec.from, {address}, {}, &directory, policy);
      if (!alone.ok() && alone.error().code == ErrorCode::unknown_recipient &&
          mail::is_valid_mailbox(address)) {
        out.dropped.push_back(address);
        continue;
      }
      kept->push_back(address);
    }
  }
  return out;
}

mail::SendRequest firing_request(const mail::Schedule& schedule, const Evaluator& evaluator,
                                 const Recipients& recipients, mail::UnixMillis slot)
{
  const mail::ScheduleMessage& m = schedule.spec.message;
  mail::SendRequest request;
  request.seen_via.reset(); // the schedule sent it, not its owner
  request.from = schedule.spec.from;
  request.to = recipients.to;
  request.cc = recipients.cc;
  request.subject = m.subject;
  request.body = m.body;
  request.priority = m.priority;
  request.type = m.type;
  request.ack = m.ack;
  request.schedule = schedule.spec.name;
  request.slot = slot;
  if (schedule.spec.rule.kind == mail::RuleKind::at) {
    request.ttl = m.ttl; // a one-shot's --ttl counts from when it is sent, however late
  } else {
    request.ttl = m.ttl ? m.ttl : period_after(evaluator.rule, evaluator.zone, slot);
    request.ttl_from = slot;
  }
  return request;
}

mail::SendRequest failure_escalation(const mail::Schedule& schedule, mail::UnixMillis slot,
                                     const Error& error)
{
  mail::SendRequest request;
  request.seen_via.reset(); // the schedule sent it, not its owner
  request.from = std::string(mail::k_system_sender);
  request.to = {schedule.spec.from};
  request.type = "escalation";
  request.priority = mail::Priority::high;
  request.subject = fmt::format("schedule {} could not fire", schedule.spec.name);
  request.body = fmt::format(
      "Your schedule {} could not send its message for the slot {}: {}\n"
      "Later slots will be tried as usual; you get no further message about it until one of them is "
      "sent.\nSee: mailroom schedule show {}\n",
      schedule.spec.name, format_utc(floor_div(slot, k_firing_second_ms)), error.message, schedule.spec.name);
  return request;
}

} // namespace mailroom::schedule
