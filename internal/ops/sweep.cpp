#include "sweep.hpp"

#include <fmt/format.h>

#include "errors.hpp"
#include "mail/address.hpp"
#include "mail/duration.hpp"
#include "render/health.hpp"
#include "render/json.hpp"
#include "util/interrupt.hpp"

namespace mailroom::ops {

namespace {

constexpr text::Literal k_off = "redelivery is off (set [delivery.redelivery] enabled = true)\n";

Result<SweepEnd> sweep_once(mail::Provider& provider, const mail::SweepRequest& query,
                            const SweepEvents& events)
{
  TRY_ASSIGN(mail::Health * health, mail::need(provider.facets().health, "sweep"));
  TRY_ASSIGN(mail::SweepReport report, health->sweep(query));
  const Result<void> shown = events.pass(SweepResult{report, false});
  if (report.stopped) {
    return *report.stopped;
  }
  TRY(shown);
  return SweepEnd{};
}

Result<SweepEnd> sweep_every(mail::Provider& provider, const mail::SweepRequest& query, mail::Millis every,
                             const SweepEvents& events)
{
  TRY_ASSIGN(std::unique_ptr<util::InterruptWatch> interrupts, util::InterruptWatch::install());
  while (interrupts->received() == 0) {
    mail::Health* health = provider.facets().health;
    auto pass =
        health != nullptr ? health->sweep(query) : Result<mail::SweepReport>(mail::missing_facet("sweep"));
    if (pass.ok() && !pass->enabled && !pass->dry_run) {
      // Off: nothing would ever happen, so say so once and stop (as a single pass does).
      TRY(events.pass(SweepResult{*pass, false}));
      return SweepEnd{};
    }
    if (pass.ok()) {
      TRY(events.pass(SweepResult{*pass, true}));
    }
    const Error* failed = !pass.ok() ? &pass.error() : (pass->stopped ? &*pass->stopped : nullptr);
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
  return every ? sweep_every(*provider, query, *every, events) : sweep_once(*provider, query, events);
}

nlohmann::json to_json(const SweepResult& result)
{
  return render::sweep_to_json(result.report);
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
  nlohmann::json pass = render::json_document();
  pass["event"] = "pass";
  pass["ok"] = !report.stopped.has_value();
  pass["enabled"] = report.enabled;
  pass["dry_run"] = report.dry_run;
  pass["redelivered"] = report.redelivered.size();
  pass["escalated"] = report.escalated.size();
  pass["redelivered_count"] = report.redelivered.size(); // the name `sweep --json` uses too
  pass["escalated_count"] = report.escalated.size();
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
  if (!report.enabled) {
    text += k_off;
  }
  for (const mail::Redelivery& r : report.redelivered) {
    text += render::redelivery_line(r, report.dry_run);
    text += "\n";
  }
  for (const mail::Escalation& e : report.escalated) {
    text += render::escalation_line(e, report.dry_run);
    text += "\n";
  }
  if (report.dry_run && report.redelivered.empty() && report.escalated.empty() && !result.repeating) {
    text += "Nothing is due\n";
  }
  return text;
}

} // namespace mailroom::ops
