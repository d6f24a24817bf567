// How one schedule is shown with its history (schedule show): the schedule object with its
// firings, and the human view of both, times in the schedule's own zone.

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

nlohmann::json to_json(const ScheduleShowResult& result)
{
  nlohmann::json doc = render::json_document();
  doc.update(schedule_view::schedule_to_json(result.schedule));
  nlohmann::json firings = nlohmann::json::array();
  for (const mail::Firing& f : result.schedule.firings) {
    nlohmann::json row = schedule_view::firing_to_json(f);
    nlohmann::json states = nlohmann::json::object();
    for (const auto& [recipient, state] : f.request_states) {
      states[recipient] = state;
    }
    row["request_states"] = std::move(states);
    firings.push_back(std::move(row));
  }
  doc["firings"] = std::move(firings);
  return doc;
}

text::DisplayText to_text(const ScheduleShowResult& result, const render::Style& style)
{
  const mail::Schedule& s = result.schedule;
  const mail::ScheduleMessage& m = s.spec.message;
  std::string lines;
  lines += fmt::format("Schedule:  {} ({})\n", s.spec.name, s.id);
  lines += fmt::format("From:      {}\n", s.spec.from);
  lines += fmt::format("To:        {}\n", text::join(m.to, ", "));
  if (!m.cc.empty()) {
    lines += fmt::format("Cc:        {}\n", text::join(m.cc, ", "));
  }
  lines += fmt::format("Subject:   {}\n", m.subject ? *m.subject : mail::derive_subject(m.body));
  lines += fmt::format("Type:      {}\n", m.type);
  lines += fmt::format("Rule:      {} in {}", schedule_view::rule_text(s), s.spec.rule.tz);
  if (s.spec.rule.kind == mail::RuleKind::at) {
    lines += fmt::format(" at {}", schedule_view::wall_time(s, s.spec.rule.at));
  }
  if (s.spec.rule.until) {
    lines += fmt::format(", until {}", schedule_view::wall_time(s, *s.spec.rule.until));
  }
  lines += "\n";
  lines += fmt::format("Policy:    catch-up {}, overlap {}\n", mail::to_string(s.spec.catch_up),
                       mail::to_string(s.spec.overlap));
  lines +=
      fmt::format("Next:      {}\n", s.next_at ? schedule_view::wall_time(s, *s.next_at) : std::string("-"));
  lines += fmt::format("State:     {}\n", schedule_view::state_text(s));
  text::DisplayText out = text::sanitize_text(lines);
  if (s.firings.empty()) {
    out += text::DisplayText("History:   none yet\n");
    return out;
  }
  render::Table history;
  history.header = {"SLOT", "OUTCOME", "MESSAGE", "REQUEST", "LATE"};
  for (const mail::Firing& f : s.firings) {
    std::string outcome(mail::to_string(f.outcome));
    if (f.outcome == mail::FiringOutcome::missed && f.count > 1) {
      outcome = fmt::format("missed x{}", f.count);
    } else if (f.kind == mail::FiringKind::run_now) {
      outcome += " (run-now)";
    }
    if (!f.error_code.empty()) {
      outcome += " (" + f.error_code + ")";
    }
    history.rows.push_back(
        {schedule_view::wall_time(s, f.slot), outcome, f.message_id.value_or("-"),
         schedule_view::request_text(f),
         f.outcome == mail::FiringOutcome::missed ? "-" : mail::format_duration(f.lateness())});
  }
  out += text::DisplayText("History:\n");
  out += render::render_table(history, style);
  return out;
}

nlohmann::json schedule_show_output_schema()
{
  using namespace schema;
  nlohmann::json doc = schedule_view::schedule_schema();
  doc["required"].push_back("schema_version");
  doc["required"].push_back("firings");
  doc["properties"]["schema_version"] = integer();
  doc["properties"]["firings"] = array_of(object({{"slot", string()},
                                                  {"kind", string()},
                                                  {"fired_at", string()},
                                                  {"lateness_ms", integer()},
                                                  {"outcome", string()},
                                                  {"message_id", nullable(string())},
                                                  {"count", integer()},
                                                  {"last_slot", nullable(string())},
                                                  {"error_code", nullable(string())},
                                                  {"detail", string()},
                                                  {"request_states", map_of(string())}}));
  return doc;
}

} // namespace mailroom::ops
