// mailroom status: each recipient's delivered, read, archived and ack state, and who really sent it.

#include "cli/commands.hpp"
#include "cli/support.hpp"
#include "ops/views.hpp"

namespace mailroom::cli {

namespace {

struct StatusOptions {
  std::vector<std::string> ids;
};

Result<ExitCode> run_status(Context& ctx, const StatusOptions& opts)
{
  TRY(require_ids(opts.ids));
  if (opts.ids.size() > 1) {
    return usage_error("status takes one message ID");
  }
  TRY_ASSIGN(const ops::StatusResult result, ops::status(ctx.session, ops::StatusRequest{opts.ids.front()}));
  TRY(print_result(ctx, result));
  return ExitCode::ok;
}

} // namespace

void register_status(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<StatusOptions>();
  command.add_option("id", opts->ids, "the message ID");
  command.footer("Example:\n  mailroom status mr-a1b2c3");
  inv.on_select(command, [opts](Context& ctx) { return run_status(ctx, *opts); });
}

} // namespace mailroom::cli
