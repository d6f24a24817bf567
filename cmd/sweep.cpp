// mailroom sweep: one pass of the redelivery sweep (contract "The redelivery sweep"), for cron or
// a systemd timer; --every DUR repeats it until SIGINT/SIGTERM (exit 130/143), writing JSON Lines
// with --json. The store does the pass (SqlStore::sweep); this file prints it and runs the
// [notify] command for each redelivered recipient once the redelivery is committed.

#include <csignal>

#include <fmt/format.h>

#include "commands.hpp"
#include "mail/address.hpp"
#include "mail/duration.hpp"
#include "notify.hpp"
#include "render/health.hpp"
#include "render/json.hpp"
#include "support.hpp"
#include "text/display.hpp"
#include "util/interrupt.hpp"

namespace mailroom::cli {

namespace {

constexpr text::Literal k_off = "redelivery is off (set [delivery.redelivery] enabled = true)\n";

struct SweepOptions {
  bool dry_run = false;
  std::optional<std::string> from;
  std::optional<std::string> every;
};

// Prints one pass as text: one line per action, and the "off" note when the sweep is disabled.
Result<void> print_text(Context& ctx, const mail::SweepReport& report, bool quiet_when_idle)
{
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
  if (report.dry_run && report.redelivered.empty() && report.escalated.empty() && !quiet_when_idle) {
    text += "Nothing is due\n";
  }
  return text.empty() ? Result<void>() : write_text(ctx, text);
}

// One object per action and one "pass" object, each a line (sweep --every --json).
Result<void> print_events(Context& ctx, const mail::SweepReport& report)
{
  for (const mail::Redelivery& r : report.redelivered) {
    nlohmann::json event = render::json_document();
    event["event"] = report.dry_run ? "would_redeliver" : "redelivered";
    event.update(render::redelivery_to_json(r));
    TRY(write_json(ctx, event));
  }
  for (const mail::Escalation& e : report.escalated) {
    nlohmann::json event = render::json_document();
    event["event"] = report.dry_run ? "would_escalate" : "escalated";
    event.update(render::escalation_to_json(e));
    TRY(write_json(ctx, event));
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
  return write_json(ctx, pass);
}

void notify_redelivered(Context& ctx, const mail::SweepReport& report)
{
  if (report.dry_run) {
    return;
  }
  for (const mail::Redelivery& r : report.redelivered) {
    notify_redelivery(ctx, r);
  }
}

Result<ExitCode> run_once(Context& ctx, mail::Provider& provider, const mail::SweepRequest& request)
{
  TRY_ASSIGN(mail::SweepReport report, provider.sweep(request));
  const Result<void> written =
      ctx.json ? write_json(ctx, render::sweep_to_json(report)) : print_text(ctx, report, false);
  notify_redelivered(ctx, report);
  if (report.stopped) {
    return *report.stopped;
  }
  TRY(written);
  return ExitCode::ok;
}

Result<ExitCode> run_every(Context& ctx, mail::Provider& provider, const mail::SweepRequest& request,
                           mail::Millis every)
{
  TRY_ASSIGN(std::unique_ptr<util::InterruptWatch> interrupts, util::InterruptWatch::install());
  while (interrupts->received() == 0) {
    auto pass = provider.sweep(request);
    if (pass.ok() && !pass->enabled && !pass->dry_run) {
      // Off: nothing would ever happen, so say so once and stop (as a single pass does).
      TRY(ctx.json ? write_json(ctx, render::sweep_to_json(*pass))
                   : write_text(ctx, text::DisplayText(k_off)));
      return ExitCode::ok;
    }
    if (pass.ok()) {
      TRY(ctx.json ? print_events(ctx, *pass) : print_text(ctx, *pass, true));
      notify_redelivered(ctx, *pass);
    }
    const Error* failed = !pass.ok() ? &pass.error() : (pass->stopped ? &*pass->stopped : nullptr);
    if (failed != nullptr) {
      // A long-running sweep outlives a locked or unreachable store: say so and try next time.
      if (ctx.json) {
        nlohmann::json event = render::json_document();
        event["event"] = "error";
        event["error"] = render::error_to_json(*failed)["error"];
        ctx.out.err(render::dump_json(event));
      } else {
        warn(ctx, "sweep_failed",
             fmt::format("{} (trying again in {})", failed->message, mail::format_duration(every)));
      }
    }
    interrupts->wait_for(std::chrono::milliseconds(every));
  }
  return interrupts->received() == SIGTERM ? ExitCode::terminated : ExitCode::interrupted;
}

Result<ExitCode> run_sweep(Context& ctx, const SweepOptions& opts)
{
  mail::SweepRequest request;
  request.dry_run = opts.dry_run;
  if (opts.from) {
    if (!mail::is_valid_mailbox(*opts.from)) {
      TRY(mail::parse_address(*opts.from));
      return usage_error(fmt::format("--from \"{}\" is not a mailbox", *opts.from),
                         "name one sender, e.g. mayor or rig/mayor");
    }
    request.from = *opts.from;
  }
  std::optional<mail::Millis> every;
  if (opts.every) {
    TRY_ASSIGN(every, mail::parse_duration(*opts.every, "--every"));
    if (*every <= 0) {
      return usage_error("--every must be longer than 0");
    }
  }
  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  return every ? run_every(ctx, *provider, request, *every) : run_once(ctx, *provider, request);
}

} // namespace

void register_sweep(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<SweepOptions>();
  command.add_flag("--dry-run", opts->dry_run,
                   "say what a pass would do and change nothing (also when it is off)");
  command.add_option("--from", opts->from, "only messages sent by this mailbox")->type_name("NAME");
  command.add_option("--every", opts->every, "repeat every DUR (e.g. 5m) until interrupted")
      ->type_name("DUR");
  command.footer(
      "Redelivers unacknowledged deliveries on the [delivery.redelivery] schedule and escalates\n"
      "once per dark peer. Off unless [delivery.redelivery] enabled = true.\n"
      "Examples:\n  mailroom sweep --dry-run\n  mailroom sweep            # from cron or a systemd timer\n"
      "  mailroom sweep --every 5m --json");
  inv.on_select(command, [opts](Context& ctx) { return run_sweep(ctx, *opts); });
}

} // namespace mailroom::cli
