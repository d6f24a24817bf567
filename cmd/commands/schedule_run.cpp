// mailroom schedule run-due and run-now: the firer for cron or a systemd timer (once, or with
// --loop DUR until SIGINT/SIGTERM, JSON Lines with --json), and one extra firing now. After a
// firing commits, the [notify] command runs for schedules made with --notify, and a run that is not
// a loop (a loop runs its own wake passes) starts a wake pass for the wakes its firings recorded.
// The firing is ops/schedule_firing.hpp.

#include <fmt/format.h>

#include "cli/support.hpp"
#include "mail/duration.hpp"
#include "ops/notify.hpp"
#include "ops/schedule_firing.hpp"
#include "ops/sweep.hpp"
#include "render/json.hpp"
#include "schedule_commands.hpp"
#include "wait_support.hpp"
#include "wake_start.hpp"

namespace mailroom::cli {

namespace {

void wake_after(Context& ctx, const mail::FireReport& report)
{
  if (!report.dry_run && !report.fired.empty()) {
    start_wake_pass(ctx);
  }
}

Result<ExitCode> run_due(Context& ctx, const ops::RunDueRequest& opts)
{
  ops::FireEvents events;
  events.pass = [&ctx](const ops::FireResult& pass) -> Result<void> {
    Result<void> written;
    if (ctx.json && pass.repeating) {
      for (const nlohmann::json& event : ops::fire_events_json(pass)) {
        written = write_json(ctx, event);
        if (!written.ok()) {
          break;
        }
      }
    } else {
      written = print_result(ctx, pass);
    }
    ops::notify_fired(ctx.session, pass.report);
    if (!pass.repeating) {
      wake_after(ctx, pass.report);
    }
    return written;
  };
  events.failed = [&ctx](const Error& error, mail::Millis wait) {
    if (ctx.json) {
      ctx.out.err(render::dump_json(ops::sweep_error_json(error))); // a looping firer's error event
    } else {
      warn(ctx, "run_due_failed",
           fmt::format("{} (trying again in {})", error.message, mail::format_duration(wait)));
    }
  };
  TRY_ASSIGN(const ops::FireEnd end, ops::schedule_run_due(ctx.session, opts, events));
  return end.signal != 0 ? interrupted_exit(end.signal) : ExitCode::ok;
}

} // namespace

void register_schedule_run_due(CLI::App& schedule, Invocation& inv)
{
  auto opts = std::make_shared<ops::RunDueRequest>();
  CLI::App* command =
      schedule.add_subcommand("run-due", "fire every due slot and exit (or loop with --loop)");
  command->add_flag("--dry-run", opts->dry_run, "say what would fire and change nothing");
  command->add_option("--from", opts->from, "only this owner's schedules")->type_name("NAME");
  command->add_option("--loop,--every", opts->loop, "fire, sleep until the next slot (at most DUR), repeat")
      ->type_name("DUR");
  command->footer("Examples:\n"
                  "  * * * * * mailroom schedule run-due       # a crontab line (docs/schedules.md)\n"
                  "  mailroom schedule run-due --loop 1m --json");
  inv.on_select(*command, [opts](Context& ctx) { return run_due(ctx, *opts); });
}

void register_schedule_run_now(CLI::App& schedule, Invocation& inv)
{
  auto opts = std::make_shared<ops::RunNowRequest>();
  CLI::App* command = schedule.add_subcommand("run-now", "fire a schedule once more, now");
  command->add_option("name", opts->name, "the schedule's name")->required();
  command->add_option("--for", opts->for_name, "act on NAME's schedule (an operator)")->type_name("NAME");
  inv.on_select(*command, [opts](Context& ctx) -> Result<ExitCode> {
    TRY_ASSIGN(const ops::FireResult result, ops::schedule_run_now(ctx.session, *opts));
    TRY(print_result(ctx, result));
    ops::notify_fired(ctx.session, result.report);
    wake_after(ctx, result.report);
    return ExitCode::ok;
  });
}

} // namespace mailroom::cli
