// mailroom wake-run: runs the wakes a send, a reply or a redelivery recorded (IDs), or, without
// IDs, one wake pass (what is due: deferred wakes, wakes recorded elsewhere for this host and
// user). Started by mailroom itself in a session of its own (wake_start.hpp); safe to run by hand.
// The wake decisions are ops/wake.hpp's.

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/support.hpp"
#include "ops/wake.hpp"
#include "render/json.hpp"

namespace mailroom::cli {

namespace {

struct WakeRunOptions {
  std::vector<std::string> ids;
  std::int64_t attempt = 0;
  std::optional<std::string> to;
};

Result<ExitCode> run_wake_run(Context& ctx, const WakeRunOptions& opts)
{
  if (opts.attempt < 0) {
    return usage_error("--attempt must be 0 or more");
  }
  if ((opts.attempt > 0 || opts.to) && opts.ids.empty()) {
    return usage_error("--attempt and --to need message ids");
  }
  TRY_ASSIGN(const ops::WakeRunReport report,
             ops::run_wakes(ctx.session, ops::WakeRunRequest{opts.ids, opts.attempt, opts.to}));
  if (ctx.globals.quiet && !ctx.json) {
    return ExitCode::ok;
  }
  TRY(print_result(ctx, report));
  return ExitCode::ok;
}

} // namespace

void register_wake_run(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<WakeRunOptions>();
  command.add_option("ids", opts->ids, "the messages whose wakes to record and run (none: a wake pass)");
  command.add_option("--attempt", opts->attempt, "0 for a send, k for the sweep's redelivery k")
      ->type_name("K");
  command.add_option("--to", opts->to, "only this recipient's wake (a redelivery's)")->type_name("NAME");
  command.footer("Started by send, reply and sweep after the message is stored; serve, sweep --every and\n"
                 "schedule run-due --loop run wake passes themselves.\n"
                 "Examples:\n  mailroom wake-run            # one wake pass\n  mailroom --json wake-run "
                 "mr-0123456789abcdef");
  inv.on_select(command, [opts](Context& ctx) { return run_wake_run(ctx, *opts); });
}

} // namespace mailroom::cli
