#include "wake_start.hpp"

#include "cli/support.hpp"
#include "ops/wake.hpp"
#include "util/detached.hpp"
#include "wake/run.hpp"

namespace mailroom::cli {

namespace {

// This program with the flags that chose this configuration and store, as `wake-run ARGS…`.
void launch(Context& ctx, const std::vector<std::string>& args)
{
  const std::string self = util::self_executable();
  if (self.empty()) {
    warn(ctx, "wake_not_started", "cannot find this program to run the wake");
    return;
  }
  std::vector<std::string> argv{self};
  for (const auto& [flag, value] :
       {std::pair{"--config", ctx.globals.config}, std::pair{"--db", ctx.globals.db},
        std::pair{"--city", ctx.globals.city}}) {
    if (value) {
      argv.insert(argv.end(), {flag, *value});
    }
  }
  argv.emplace_back("wake-run");
  argv.insert(argv.end(), args.begin(), args.end());
  wake::Launcher launcher;
  if (auto started = launcher.launch(argv); !started.ok()) {
    warn(ctx, "wake_not_started", started.error().message);
  }
}

} // namespace

void start_wakes(Context& ctx, const std::vector<mail::SendReceipt>& receipts)
{
  std::vector<std::string> ids = ops::messages_to_wake(ctx.session, receipts);
  if (!ids.empty()) {
    launch(ctx, ids);
  }
}

void start_wake_pass(Context& ctx)
{
  launch(ctx, {});
}

void start_redelivery_wakes(Context& ctx, const std::vector<mail::Redelivery>& redelivered)
{
  for (const mail::Redelivery& r : ops::redeliveries_to_wake(ctx.session, redelivered)) {
    launch(ctx, {"--attempt", std::to_string(r.attempt), "--to", r.recipient, r.id});
  }
}

} // namespace mailroom::cli
