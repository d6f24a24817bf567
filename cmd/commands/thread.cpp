// mailroom thread: a conversation by thread id or by any message id in it, oldest first
// (ops/thread.hpp).

#include "ops/thread.hpp"
#include "cli/commands.hpp"
#include "cli/support.hpp"

namespace mailroom::cli {

namespace {

struct ThreadOptions {
  std::vector<std::string> ids;
};

Result<ExitCode> run_thread(Context& ctx, const ThreadOptions& opts)
{
  if (opts.ids.empty()) {
    return usage_error("missing thread ID");
  }
  if (opts.ids.size() > 1) {
    return usage_error("thread takes one thread or message ID");
  }
  auto result = ops::thread(ctx.session, ops::ThreadRequest{opts.ids.front()});
  if (!result.ok() && result.error().code == ErrorCode::not_found && !ctx.json) {
    // An empty or unknown thread: the contract's wording on stdout, exit 3.
    TRY(write_text(ctx, ops::empty_thread_text(opts.ids.front())));
    return ExitCode::not_found;
  }
  TRY(result);
  TRY(print_result(ctx, *result));
  return ExitCode::ok;
}

} // namespace

void register_thread(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<ThreadOptions>();
  command.add_option("id", opts->ids, "a thread ID or any message ID in the thread");
  command.footer("Example:\n  mailroom thread mr-a1b2c3");
  inv.on_select(command, [opts](Context& ctx) { return run_thread(ctx, *opts); });
}

} // namespace mailroom::cli
