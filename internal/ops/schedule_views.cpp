// How schedules are shown: the schedule object every surface returns (contract "Schedules",
// decisions "JSON") and the human views, times in each schedule's own zone.

#include <fmt/format.h>

#include "mail/duration.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "schedule/firing.hpp"
#include "schedule/times.hpp"
#include "schedule_views.hpp"
#include "schedules.hpp"
#include "schema.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"

namespace mailroom::ops {

namespace schedule_view {

using text::json_text;

nlohmann::json time_or_null(const std::optional<mail::UnixMillis>& when)
{
  return when ? nlohmann::json(render::format_rfc3339(*when)) : nlohmann::json(nullptr);
}

nlohmann::json texts(const std::vector<std::string>& values)
{
  nlohmann::json out = nlohmann::json::array();
  for (const std::string& value : values) {
    out.push_back(json_text(value));
  }
  return out;
}

nlohmann::json rule_to_json(const mail::ScheduleRule& rule)
{
  nlohmann::json j;
  switch (rule.kind) {
  case mail::RuleKind::at:
    j["at"] = render::format_rfc3339(rule.at);
    break;
  case mail::RuleKind::every:
    j["every_ms"] = rule.every;
    break;
  case mail::RuleKind::cron:
    j["cron"] = rule.cron;
    break;
  }
  j["tz"] = rule.tz;
  if (rule.kind != mail::RuleKind::at) {
    j["start"] = time_or_null(rule.kind == mail::RuleKind::every ? std::optional(rule.anchor) : rule.start);
    j["until"] = time_or_null(rule.until);
  }
  return j;
}

nlohmann::json firing_to_json(const mail::Firing& f)
{
  nlohmann::json j;
  j["slot"] = render::format_rfc3339(f.slot);
  j["kind"] = mail::to_string(f.kind);
  j["fired_at"] = render::format_rfc3339(f.fired_at);
  j["lateness_ms"] = f.lateness();
  j["outcome"] = mail::to_string(f.outcome);
  j["message_id"] = f.message_id ? nlohmann::json(*f.message_id) : nlohmann::json(nullptr);
  j["count"] = f.count;
  j["last_slot"] = time_or_null(f.last_slot);
  j["error_code"] = f.error_code.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.error_code);
  j["detail"] = json_text(f.detail);
  return j;
}

nlohmann::json schedule_to_json(const mail::Schedule& s)
{
  const mail::ScheduleMessage& m = s.spec.message;
  nlohmann::json j;
  j["name"] = s.spec.name;
  j["from"] = s.spec.from;
  j["to"] = texts(m.to);
  j["cc"] = texts(m.cc);
  std::vector<std::string> addressed = m.to;
  addressed.insert(addressed.end(), m.cc.begin(), m.cc.end());
  j["addressed_to"] = texts(addressed);
  j["subject"] = json_text(m.subject ? *m.subject : mail::derive_subject(m.body));
  j["body_bytes"] = m.body.size();
  j["type"] = m.type;
  j["priority"] = static_cast<int>(m.priority);
  j["ttl_ms"] = m.ttl ? nlohmann::json(*m.ttl) : nlohmann::json(nullptr);
  j["rule"] = rule_to_json(s.spec.rule);
  j["catch_up"] = mail::to_string(s.spec.catch_up);
  j["overlap"] = mail::to_string(s.spec.overlap);
  j["paused"] = s.paused_at.has_value();
  j["next_at"] = time_or_null(s.next_at);
  if (s.last) {
    j["last"] = {
        {"slot", render::format_rfc3339(s.last->slot)},
        {"outcome", mail::to_string(s.last->outcome)},
        {"message_id", s.last->message_id ? nlohmann::json(*s.last->message_id) : nlohmann::json(nullptr)}};
  } else {
    j["last"] = nullptr;
  }
  j["created_at"] = render::format_rfc3339(s.created_at);
  j["ended_at"] = time_or_null(s.ended_at);
  j["end_reason"] = s.end_reason.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.end_reason);
  return j;
}

nlohmann::json schedule_schema()
{
  using namespace schema;
  const nlohmann::json names = array_of(string());
  const nlohmann::json time = string();
  return object({{"name", string()},
                 {"from", string()},
                 {"to", names},
                 {"cc", names},
                 {"addressed_to", names},
                 {"subject", string()},
                 {"body_bytes", integer()},
                 {"type", string()},
                 {"priority", integer()},
                 {"ttl_ms", nullable(integer())},
                 {"rule", object({{"tz", string()}}, {{"at", time},
                                                      {"every_ms", integer()},
                                                      {"cron", string()},
                                                      {"start", nullable(time)},
                                                      {"until", nullable(time)}})},
                 {"catch_up", string()},
                 {"overlap", string()},
                 {"paused", boolean()},
                 {"next_at", nullable(time)},
                 {"last", nullable(object(
                              {{"slot", time}, {"outcome", string()}, {"message_id", nullable(string())}}))},
                 {"created_at", time},
                 {"ended_at", nullable(time)},
                 {"end_reason", nullable(string())}});
}

// "2026-12-02 09:00 CET" in the schedule's zone (UTC when the zone no longer loads).
std::string wall_time(const mail::Schedule& s, mail::UnixMillis when)
{
  auto zone = schedule::Zone::load(s.spec.rule.tz);
  const schedule::Zone shown = zone.ok() ? std::move(zone).value() : schedule::Zone::utc();
  const schedule::Seconds seconds = schedule::floor_div(when, 1000);
  return fmt::format("{} {}", schedule::format_wall(shown, seconds), shown.abbreviation_at(seconds));
}

std::string rule_text(const mail::Schedule& s)
{
  const mail::ScheduleRule& r = s.spec.rule;
  switch (r.kind) {
  case mail::RuleKind::at:
    return "once";
  case mail::RuleKind::every:
    return "every " + mail::format_duration(r.every);
  case mail::RuleKind::cron:
    return "cron " + r.cron;
  }
  return "";
}

std::string state_text(const mail::Schedule& s)
{
  if (s.ended_at) {
    return s.end_reason.empty() ? "ended" : s.end_reason;
  }
  return s.paused_at ? "paused" : "active";
}

std::string last_text(const mail::Schedule& s, mail::UnixMillis now)
{
  if (!s.last) {
    return "-";
  }
  return fmt::format("{} {}", mail::to_string(s.last->outcome), render::format_age(s.last->fired_at, now));
}

std::string request_text(const mail::Firing& f)
{
  std::vector<std::string> parts;
  for (const auto& [recipient, state] : f.request_states) {
    parts.push_back(fmt::format("{}: {}", recipient, state));
  }
  return parts.empty() ? "-" : text::join(parts, ", ");
}

} // namespace schedule_view

nlohmann::json to_json(const ScheduleResult& result)
{
  nlohmann::json doc = render::json_document();
  doc["ok"] = true;
  doc["ids"] = {result.schedule.spec.name};
  doc["schedule"] = schedule_view::schedule_to_json(result.schedule);
  doc["replayed"] = result.replayed;
  return doc;
}

text::DisplayText to_text(const ScheduleResult& result, const render::Style& /*style*/)
{
  const mail::Schedule& s = result.schedule;
  const std::string next = s.next_at ? schedule_view::wall_time(s, *s.next_at) : std::string("none");
  return text::DisplayText::format("Scheduled {}: {} in {}, next {}\n", text::sanitize_line(s.spec.name),
                                   text::sanitize_line(schedule_view::rule_text(s)),
                                   text::sanitize_line(s.spec.rule.tz), text::sanitize_line(next));
}

nlohmann::json schedule_result_output_schema()
{
  using namespace schema;
  return document({{"ok", boolean()},
                   {"ids", array_of(string())},
                   {"schedule", schedule_view::schedule_schema()},
                   {"replayed", boolean()}});
}

nlohmann::json to_json(const SendLaterResult& result)
{
  nlohmann::json doc = render::json_document();
  doc["ok"] = true;
  doc["scheduled"] = true;
  doc["schedule"] = result.schedule.spec.name;
  doc["due_at"] = render::format_rfc3339(result.schedule.spec.rule.at);
  doc["id"] = nullptr;
  doc["ids"] = nlohmann::json::array();
  doc["recipients"] = result.recipients;
  doc["replayed"] = result.replayed;
  return doc;
}

text::DisplayText to_text(const SendLaterResult& result, const render::Style& /*style*/)
{
  const mail::Schedule& s = result.schedule;
  std::vector<std::string> addressed = s.spec.message.to;
  addressed.insert(addressed.end(), s.spec.message.cc.begin(), s.spec.message.cc.end());
  text::DisplayText out =
      result.replayed ? text::DisplayText("Already scheduled") : text::DisplayText("Scheduled");
  out += text::DisplayText::format(
      " message to {} at {} (schedule {})\n", text::sanitize_line(text::join(addressed, ", ")),
      text::sanitize_line(schedule_view::wall_time(s, s.spec.rule.at)), text::sanitize_line(s.spec.name));
  return out;
}

nlohmann::json send_later_output_schema()
{
  using namespace schema;
  return document({{"ok", boolean()},
                   {"scheduled", boolean()},
                   {"schedule", string()},
                   {"due_at", string()},
                   {"id", nullable(string())},
                   {"ids", array_of(string())},
                   {"recipients", array_of(string())},
                   {"replayed", boolean()}});
}

nlohmann::json to_json(const ScheduleListResult& result)
{
  nlohmann::json doc = render::json_document();
  nlohmann::json list = nlohmann::json::array();
  for (const mail::Schedule& s : result.schedules) {
    list.push_back(schedule_view::schedule_to_json(s));
  }
  doc["schedules"] = std::move(list);
  return doc;
}

text::DisplayText to_text(const ScheduleListResult& result, const render::Style& style)
{
  if (result.schedules.empty()) {
    return text::DisplayText("No schedules\n");
  }
  render::Table table;
  table.header = {"NAME", "FROM", "TO", "RULE", "ZONE", "NEXT", "LAST", "STATE"};
  for (const mail::Schedule& s : result.schedules) {
    std::vector<std::string> to = s.spec.message.to;
    to.insert(to.end(), s.spec.message.cc.begin(), s.spec.message.cc.end());
    table.rows.push_back({s.spec.name, s.spec.from, text::join(to, ", "), schedule_view::rule_text(s),
                          s.spec.rule.tz,
                          s.next_at ? schedule_view::wall_time(s, *s.next_at) : std::string("-"),
                          schedule_view::last_text(s, result.now), schedule_view::state_text(s)});
  }
  return render::render_table(table, style);
}

nlohmann::json schedule_list_output_schema()
{
  using namespace schema;
  return document({{"schedules", array_of(schedule_view::schedule_schema())}});
}

nlohmann::json to_json(const ScheduleChangeResult& result)
{
  nlohmann::json doc = render::json_document();
  doc["ok"] = true;
  doc["ids"] = names_of(result.changed);
  return doc;
}

text::DisplayText to_text(const ScheduleChangeResult& result, const render::Style& /*style*/)
{
  text::DisplayText out;
  for (const mail::Schedule& s : result.changed) {
    std::string line;
    switch (result.kind) {
    case mail::ScheduleChange::Kind::pause:
      line = fmt::format("Paused schedule {}", s.spec.name);
      break;
    case mail::ScheduleChange::Kind::resume:
      line = fmt::format("Resumed schedule {} (next {})", s.spec.name,
                         s.next_at ? schedule_view::wall_time(s, *s.next_at) : std::string("none"));
      break;
    case mail::ScheduleChange::Kind::cancel:
      line = fmt::format("Canceled schedule {}", s.spec.name);
      break;
    case mail::ScheduleChange::Kind::edit:
      line = fmt::format("Edited schedule {}", s.spec.name);
      break;
    }
    out += text::sanitize_line(line);
    out += text::DisplayText("\n");
  }
  return out;
}

nlohmann::json schedule_change_output_schema()
{
  using namespace schema;
  return document({{"ok", boolean()}, {"ids", array_of(string())}});
}

} // namespace mailroom::ops
