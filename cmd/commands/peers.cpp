// mailroom peers: the health of the caller's channel to each mailbox it exchanged mail with
// (contract "Acknowledgement and delivery health"), stale peers first; `peers <name>` one peer;
// `peers --all` every sender x recipient pair (the operator's matrix).

#include "cli/commands.hpp"
#include "cli/support.hpp"
#include "ops/views.hpp"

namespace mailroom::cli {

namespace {

struct PeersOptions {
  std::optional<std::string> peer;
  bool all = false;
};

Result<ExitCode> run_peers(Context& ctx, const PeersOptions& opts)
{
  if (opts.all) {
    if (opts.peer) {
      return usage_error("peers --all takes no peer");
    }
    TRY_ASSIGN(const ops::PairsResult pairs, ops::pairs(ctx.session, ops::PairsRequest{}));
    TRY(print_result(ctx, pairs));
    return ExitCode::ok;
  }
  TRY_ASSIGN(const ops::PeersResult result, ops::peers(ctx.session, ops::PeersRequest{opts.peer}));
  TRY(print_result(ctx, result));
  return ExitCode::ok;
}

} // namespace

void register_peers(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<PeersOptions>();
  command.add_option("peer", opts->peer, "one peer (default: every mailbox you exchanged mail with)")
      ->type_name("<name>");
  command.add_flag("--all", opts->all, "every sender x recipient pair that exchanged mail (read-only)");
  command.footer("A peer is stale when your oldest message to it has waited for an ack longer than\n"
                 "[delivery] stale_after (default 30m), or when the sweep gave up on one. STATE is the\n"
                 "peer's state as `team` shows it (active, not_acking, dark, idle).\n"
                 "Examples:\n  mailroom peers\n  mailroom --as mayor peers worker-3\n"
                 "  mailroom peers --all\n"
                 "  mailroom --json peers | jq '.peers[] | select(.stale) | .peer'");
  inv.on_select(command, [opts](Context& ctx) { return run_peers(ctx, *opts); });
}

} // namespace mailroom::cli
