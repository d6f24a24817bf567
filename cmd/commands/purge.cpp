// mailroom purge: deletes the mail every recipient archived long ago, and mail that expired long
// ago (ops/purge.hpp). Idempotency keys are kept.

#include "ops/purge.hpp"
#include "cli/commands.hpp"
#include "cli/support.hpp"

namespace mailroom::cli {

namespace {

Result<ExitCode> run_purge(Context& ctx, const ops::PurgeRequest& request)
{
  TRY_ASSIGN(const ops::PurgeResult result, ops::purge(ctx.session, request));
  TRY(print_result(ctx, result));
  return ExitCode::ok;
}

} // namespace

void register_purge(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<ops::PurgeRequest>();
  command.add_flag("--archived", opts->archived,
                   "delete messages every recipient archived (and expired ones)");
  command.add_option("--older-than", opts->older_than, "only those archived or expired longer ago than this")
      ->type_name("DUR");
  command.add_flag("--dry-run", opts->dry_run, "only count what would be deleted");
  command.footer("Examples:\n  mailroom purge --archived --older-than 30d --dry-run\n"
                 "  mailroom purge --archived --older-than 90d");
  inv.on_select(command, [opts](Context& ctx) { return run_purge(ctx, *opts); });
}

} // namespace mailroom::cli
