// mailroom trace: the messages of one trace (a trace id, or any message id in it) as a tree;
// `trace --recent` the traces started most recently.

#include "cli/commands.hpp"
#include "cli/support.hpp"
#include "ops/traces.hpp"
#include "ops/views.hpp"

namespace mailroom::cli {

namespace {

struct TraceOptions {
  std::vector<std::string> ids;
  bool recent = false;
  std::optional<std::int64_t> limit;
  bool open = false;
  std::optional<std::int64_t> min_messages;
};

Result<ExitCode> run_trace(Context& ctx, const TraceOptions& opts)
{
  if (opts.recent) {
    if (!opts.ids.empty()) {
      return usage_error("trace --recent takes no ID");
    }
    TRY_ASSIGN(
        const ops::RecentTracesResult recent,
        ops::recent_traces(ctx.session, ops::RecentTracesRequest{opts.limit, opts.open, opts.min_messages}));
    TRY(print_result(ctx, recent));
    return ExitCode::ok;
  }
  if (opts.limit || opts.open || opts.min_messages) {
    return usage_error("--limit, --open and --min-messages go with --recent");
  }
  if (opts.ids.empty()) {
    return usage_error("missing trace or message ID");
  }
  if (opts.ids.size() > 1) {
    return usage_error("trace takes one trace or message ID");
  }
  TRY_ASSIGN(const ops::TraceResult result, ops::trace(ctx.session, ops::TraceRequest{opts.ids.front()}));
  TRY(print_result(ctx, result));
  return ExitCode::ok;
}

} // namespace

void register_trace(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<TraceOptions>();
  command.add_option("id", opts->ids, "a trace ID (32 hex digits) or any message ID in the trace");
  command.add_flag("--recent", opts->recent, "list the traces started most recently, newest first");
  command.add_option("-n,--limit", opts->limit, "with --recent: at most N traces (default 20, at most 1000)")
      ->type_name("N");
  command.add_flag("--open", opts->open, "with --recent: only traces with an open request");
  command
      .add_option("--min-messages", opts->min_messages, "with --recent: only traces of at least N messages")
      ->type_name("N");
  command.footer(
      "Examples:\n  mailroom trace mr-a1b2c3\n  mailroom --json trace 4bf92f3577b34da6a3ce929d0e0e4736\n"
      "  mailroom trace --recent --limit 5\n  mailroom trace --recent --open --min-messages 3");
  inv.on_select(command, [opts](Context& ctx) { return run_trace(ctx, *opts); });
}

} // namespace mailroom::cli
