// mailroom sweep: one pass of the redelivery sweep (contract "The redelivery sweep"), for cron or
// a systemd timer; --every DUR repeats it until SIGINT/SIGTERM (exit 130/143), writing JSON Lines
// with --json. The sweep is ops/sweep.hpp; this file prints its passes and runs the [notify]
// command for each redelivered recipient once the redelivery is committed.

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/support.hpp"
#include "mail/duration.hpp"
#include "ops/notify.hpp"
#include "ops/sweep.hpp"
#include "render/json.hpp"
#include "wait_support.hpp"
#include "wake_start.hpp"

namespace mailroom::cli {

namespace {

using SweepOptions = ops::SweepRequest;

Result<void> print_pass(Context& ctx, const ops::SweepResult& pass)
{
  if (ctx.json && pass.repeating) {
    for (const nlohmann::json& event : ops::sweep_events_json(pass)) {
      TRY(write_json(ctx, event));
    }
    return {};
  }
  return print_result(ctx, pass);
}

Result<ExitCode> run_sweep(Context& ctx, const SweepOptions& opts)
{
  ops::SweepEvents events;
  events.pass = [&ctx](const ops::SweepResult& pass) -> Result<void> {
    const Result<void> written = print_pass(ctx, pass);
    if (!pass.report.dry_run && (written.ok() || !pass.repeating)) {
      start_redelivery_wakes(ctx, pass.report.redelivered);
      for (const mail::Redelivery& r : pass.report.redelivered) {
        ops::notify_redelivery(ctx.session, r);
      }
    }
    return written;
  };
  events.failed = [&ctx](const Error& error, mail::Millis every) {
    if (ctx.json) {
      ctx.out.err(render::dump_json(ops::sweep_error_json(error)));
    } else {
      warn(ctx, "sweep_failed",
           fmt::format("{} (trying again in {})", error.message, mail::format_duration(every)));
    }
  };
  TRY_ASSIGN(const ops::SweepEnd end, ops::sweep(ctx.session, opts, events));
  return end.signal != 0 ? interrupted_exit(end.signal) : ExitCode::ok;
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
