#include "sweep.hpp"

#include <fmt/format.h>

#include "errors.hpp"
#include "mail/address.hpp"
#include "mail/duration.hpp"
#include "render/health.hpp"
#include "render/json.hpp"
#include "schedule_firing.hpp"
#include "schema.hpp"
#include "util/interrupt.hpp"
#include "wake.hpp"

namespace mailroom::ops {

namespace {

constexpr text::Literal k_off = "redelivery is off (set [delivery.redelivery] enabled = true)\n";

// One pass: the redelivery sweep, then the schedules' due slots. The firing's failure is the pass's
// when the sweep itself succeeded.
Result<SweepResult> one_pass(Session& session, mail::Provider& provider, const mail::SweepRequest& query,
                             bool repeating)
{
  TRY_ASSIGN(mail::Health * health, mail::need(provider.facets().health, "sweep"));
  SweepResult result;
  result.repeating = repeating;
  TRY_ASSIGN(result.report, health->sweep(query));
  auto fired = fire_due(session, mail::FirerKind::sweep, query.dry_run, query.from);
  if (fired.ok()) {
    result.fired = std::move(fired->report);
  } else if (!result.report.stopped) {
    result.report.stopped = std::move(fired).error();
  }
  if (result.fired.stopped && !result.report.stopped) {
    result.report.stopped = result.fired.stopped;
  }
  return result;
}

Result<SweepEnd> sweep_once(Session& session, mail::Provider& provider, const mail::SweepRequest& query,
                            const SweepEvents& events)
{
  TRY_ASSIGN(const SweepResult pass, one_pass(session, provider, query, false));
  const Result<void> shown = events.pass(pass);
  if (pass.report.stopped) {
    return *pass.report.stopped;
  }
  TRY(shown);
  return SweepEnd{};
}

Result<SweepEnd> sweep_every(Session& session, mail::Provider& provider, const mail::SweepRequest& query,
                             mail::Millis every, const SweepEvents& events)
{
  TRY_ASSIGN(std::unique_ptr<util::InterruptWatch> interrupts, util::InterruptWatch::install());
  bool first = true;
  while (interrupts->received() == 0) {
    auto pass = one_pass(session, provider, query, true);
    wake_pass(session); // deferred wakes (decisions "Wake": sweep --every runs them)
    if (pass.ok()) {
      pass->first = first;
      first = false;
      TRY(events.pass(*pass));
    }
    const Error* failed =
        !pass.ok() ? &pass.error() : (pass->report.stopped ? &*pass->report.stopped : nullptr);
    if (failed != nullptr) {
      // A long-running sweep outlives a locked or unreachable store: say so and try next time.
      events.failed(*failed, every);
    }
    interrupts->wait_for(std::chrono::milliseconds(every));
  }
  return SweepEnd{interrupts->received()};
}

} // namespace

Result<SweepEnd> sweep(Session& session, const SweepRequest& request, const SweepEvents& events)
{
  mail::SweepRequest query;
  query.dry_run = request.dry_run;
  if (request.from) {
    if (!mail::is_valid_mailbox(*request.from)) {
      TRY(mail::parse_address(*request.from));
      return usage_error(fmt::format("--from \"{}\" is not a mailbox", *request.from),
                         "name one sender, e.g. mayor or rig/mayor");
    }
    query.from = *request.from;
  }
  std::optional<mail::Millis> every;
  if (request.every) {
    TRY_ASSIGN(every, mail::parse_duration(*request.every, "--every"));
    if (*every <= 0) {
      return usage_error("--every must be longer than 0");
    }
  }
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  return every ? sweep_every(session, *provider, query, *every, events)
               : sweep_once(session, *provider, query, events);
}

nlohmann::json to_json(const SweepResult& result)
{
  nlohmann::json doc = render::sweep_to_json(result.report);
  doc["fired"] = fired_to_json(result.fired);
  return doc;
}

nlohmann::json sweep_output_schema()
{
  using namespace schema;
  nlohmann::json doc = document({{"ok", boolean()},
                                 {"enabled", boolean()},
                                 {"dry_run", boolean()},
                                 {"redelivered", array_of(object({{"id", string()},
                                                                  {"sender", string()},
                                                                  {"recipient", string()},
                                                                  {"attempt", integer()},
                                                                  {"max_attempts", integer()}}))},
                                 {"escalated", array_of(object({{"sender", string()},
                                                                {"peer", string()},
                                                                {"ids", array_of(string())},
                                                                {"escalate_to", string()},
                                                                {"escalation_id", nullable(string())}}))},
                                 {"redelivered_count", integer()},
                                 {"escalated_count", integer()}});
  // The schedules' slots, as schedule run-due reports them.
  doc["properties"]["fired"] = fire_output_schema()["properties"]["fired"];
  doc["required"].push_back("fired");
  return doc;
}

std::vector<nlohmann::json> sweep_events_json(const SweepResult& result)
{
  const mail::SweepReport& report = result.report;
  std::vector<nlohmann::json> lines;
  for (const mail::Redelivery& r : report.redelivered) {
    nlohmann::json event = render::json_document();
    event["event"] = report.dry_run ? "would_redeliver" : "redelivered";
    event.update(render::redelivery_to_json(r));
    lines.push_back(std::move(event));
  }
  for (const mail::Escalation& e : report.escalated) {
    nlohmann::json event = render::json_document();
    event["event"] = report.dry_run ? "would_escalate" : "escalated";
    event.update(render::escalation_to_json(e));
    lines.push_back(std::move(event));
  }
  for (nlohmann::json& fired : fire_events_json(FireResult{result.fired, true})) {
    if (fired["event"] != "pass") {
      lines.push_back(std::move(fired));
    }
  }
  nlohmann::json pass = render::json_document();
  pass["event"] = "pass";
  pass["ok"] = !report.stopped.has_value();
  pass["enabled"] = report.enabled;
  pass["dry_run"] = report.dry_run;
  pass["redelivered"] = report.redelivered.size();
  pass["escalated"] = report.escalated.size();
  pass["redelivered_count"] = report.redelivered.size(); // the name `sweep --json` uses too
  pass["escalated_count"] = report.escalated.size();
  pass["fired_count"] = fired_to_json(result.fired).size();
  lines.push_back(std::move(pass));
  return lines;
}

nlohmann::json sweep_error_json(const Error& error)
{
  nlohmann::json event = render::json_document();
  event["event"] = "error";
  event["error"] = render::error_to_json(error)["error"];
  return event;
}

text::DisplayText to_text(const SweepResult& result, const render::Style& /*style*/)
{
  const mail::SweepReport& report = result.report;
  text::DisplayText text;
  if (!report.enabled && result.first) {
    text += k_off; // a repeating sweep goes on firing the schedules: said once
  }
  for (const mail::Redelivery& r : report.redelivered) {
    text += render::redelivery_line(r, report.dry_run);
    text += "\n";
  }
  for (const mail::Escalation& e : report.escalated) {
    text += render::escalation_line(e, report.dry_run);
    text += "\n";
  }
  text += fired_lines(result.fired);
  if (report.dry_run && report.redelivered.empty() && report.escalated.empty() &&
      result.fired.fired.empty() && !result.repeating) {
    text += "Nothing is due\n";
  }
  return text;
}

} // namespace mailroom::ops
