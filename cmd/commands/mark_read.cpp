// mailroom mark-read: mark messages read for the caller; --all marks the whole inbox.

#include "acting.hpp"
#include "change.hpp"
#include "cli/commands.hpp"
#include "cli/support.hpp"
#include "ops/change.hpp"

namespace mailroom::cli {

namespace {

struct MarkReadOptions {
  std::vector<std::string> ids;
  std::optional<std::string> for_name; // --for
  bool all = false;
};

Result<ExitCode> run_mark_read(Context& ctx, const MarkReadOptions& opts)
{
  if (!opts.all) {
    return run_change(ctx, opts.ids, mail::Change::mark_read, {"Marked {} as read", "Marked {} as read"},
                      opts.for_name);
  }
  if (!opts.ids.empty()) {
    return usage_error("mark-read --all takes no message IDs");
  }
  if (opts.for_name) {
    return usage_error("mark-read --all acts on your own inbox",
                       "name the message IDs to act for a recipient");
  }
  TRY_ASSIGN(const ops::MarkAllReadResult result, ops::mark_all_read(ctx.session));
  TRY(print_result(ctx, result));
  return ExitCode::ok;
}

} // namespace

void register_mark_read(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<MarkReadOptions>();
  command.add_option("ids", opts->ids, "message IDs");
  add_for_option(command, opts->for_name);
  command.add_flag("-a,--all", opts->all, "mark every unread message in your inbox read");
  command.footer("Examples:\n  mailroom mark-read mr-a1b2c3\n  mailroom mark-read --all");
  inv.on_select(command, [opts](Context& ctx) { return run_mark_read(ctx, *opts); });
}

} // namespace mailroom::cli
