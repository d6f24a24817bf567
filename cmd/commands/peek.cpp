// mailroom peek: the read view, changing nothing (ops/peek.hpp).

#include "ops/peek.hpp"
#include "cli/commands.hpp"
#include "cli/support.hpp"

namespace mailroom::cli {

namespace {

struct PeekOptions {
  std::vector<std::string> ids;
};

Result<ExitCode> run_peek(Context& ctx, const PeekOptions& opts)
{
  TRY(require_ids(opts.ids));
  if (opts.ids.size() > 1) {
    return usage_error("peek takes one message ID");
  }
  TRY_ASSIGN(const ops::PeekResult result, ops::peek(ctx.session, ops::PeekRequest{opts.ids.front()}));
  TRY(print_result(ctx, result));
  return ExitCode::ok;
}

} // namespace

void register_peek(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<PeekOptions>();
  command.add_option("id", opts->ids, "the message ID");
  command.footer("Example:\n  mailroom peek mr-a1b2c3");
  inv.on_select(command, [opts](Context& ctx) { return run_peek(ctx, *opts); });
}

} // namespace mailroom::cli
