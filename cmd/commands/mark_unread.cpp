// mailroom mark-unread: mark messages unread for the caller.

#include "acting.hpp"
#include "change.hpp"
#include "cli/commands.hpp"

namespace mailroom::cli {

namespace {

struct MarkUnreadOptions {
  std::vector<std::string> ids;
  std::optional<std::string> for_name; // --for
};

Result<ExitCode> run_mark_unread(Context& ctx, const MarkUnreadOptions& opts)
{
  return run_change(ctx, opts.ids, mail::Change::mark_unread, {"Marked {} as unread", "Marked {} as unread"},
                    opts.for_name);
}

} // namespace

void register_mark_unread(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<MarkUnreadOptions>();
  command.add_option("ids", opts->ids, "message IDs");
  add_for_option(command, opts->for_name);
  command.footer("Example:\n  mailroom mark-unread mr-a1b2c3 mr-d4e5f6");
  inv.on_select(command, [opts](Context& ctx) { return run_mark_unread(ctx, *opts); });
}

} // namespace mailroom::cli
