// mailroom read: the message is written first, and only then marked read (ops/read.hpp).

#include "ops/read.hpp"
#include "acting.hpp"
#include "cli/commands.hpp"
#include "cli/support.hpp"

namespace mailroom::cli {

namespace {

struct ReadOptions {
  std::vector<std::string> ids;
  std::optional<std::string> for_name; // --for
};

Result<ExitCode> run_read(Context& ctx, const ReadOptions& opts)
{
  TRY(require_ids(opts.ids));
  if (opts.ids.size() > 1) {
    return usage_error("read takes one message ID");
  }
  // A failed write keeps the message unread.
  const ops::ReadDeliver deliver = [&ctx](const ops::ReadResult& result) {
    return print_result(ctx, result);
  };
  TRY(ops::read(ctx.session, ops::ReadRequest{opts.ids.front(), opts.for_name}, deliver));
  return ExitCode::ok;
}

} // namespace

void register_read(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<ReadOptions>();
  command.add_option("id", opts->ids, "the message ID");
  add_for_option(command, opts->for_name);
  command.footer(
      "Examples:\n  mailroom read mr-a1b2c3\n  mailroom --json read mr-a1b2c3 | jq -r .message.body");
  inv.on_select(command, [opts](Context& ctx) { return run_read(ctx, *opts); });
}

} // namespace mailroom::cli
