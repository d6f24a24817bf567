// mailroom peers: the health of the caller's channel to each mailbox it exchanged mail with
// (contract "Acknowledgement and delivery health"), stale peers first; `peers <name>` one peer.

#include <fmt/format.h>

#include "commands.hpp"
#include "render/health.hpp"
#include "support.hpp"
#include "text/sanitize.hpp"

namespace mailroom::cli {

namespace {

struct PeersOptions {
  std::optional<std::string> peer;
};

Result<ExitCode> run_peers(Context& ctx, const PeersOptions& opts)
{
  std::optional<mail::Mailbox> peer;
  if (opts.peer) {
    TRY_ASSIGN(peer, inbox_target(ctx, opts.peer));
  }
  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  TRY_ASSIGN(mail::PeersResult result, provider->peers(ctx.me.name, peer));
  if (ctx.json) {
    TRY(write_json(ctx, render::peers_to_json(result)));
  } else if (result.peers.empty()) {
    TRY(write_text(ctx, text::DisplayText::format("No peers for {}\n", text::sanitize_line(ctx.me.name))));
  } else {
    // Never narrowed to the terminal (width 0); the header is bold with colour.
    TRY(write_text(ctx, render::render_peers_table(result, ctx.clock.now(), render::Style{0, ctx.color})));
  }
  return ExitCode::ok;
}

} // namespace

void register_peers(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<PeersOptions>();
  command.add_option("peer", opts->peer, "one peer (default: every mailbox you exchanged mail with)")
      ->type_name("<name>");
  command.footer("A peer is stale when your oldest message to it has waited for an ack longer than\n"
                 "[delivery] stale_after (default 30m), or when the sweep gave up on one.\n"
                 "Examples:\n  mailroom peers\n  mailroom --as mayor peers worker-3\n"
                 "  mailroom --json peers | jq '.peers[] | select(.stale) | .peer'");
  inv.on_select(command, [opts](Context& ctx) { return run_peers(ctx, *opts); });
}

} // namespace mailroom::cli
