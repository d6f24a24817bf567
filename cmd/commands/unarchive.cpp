// mailroom unarchive: undo archive for the caller.

#include "acting.hpp"
#include "change.hpp"
#include "cli/commands.hpp"

namespace mailroom::cli {

namespace {

struct UnarchiveOptions {
  std::vector<std::string> ids;
  std::optional<std::string> for_name; // --for
};

Result<ExitCode> run_unarchive(Context& ctx, const UnarchiveOptions& opts)
{
  return run_change(ctx, opts.ids, mail::Change::unarchive, {"Unarchived message {}", "Not archived {}"},
                    opts.for_name);
}

} // namespace

void register_unarchive(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<UnarchiveOptions>();
  command.add_option("ids", opts->ids, "message IDs");
  add_for_option(command, opts->for_name);
  command.footer("Example:\n  mailroom unarchive mr-a1b2c3 mr-d4e5f6");
  inv.on_select(command, [opts](Context& ctx) { return run_unarchive(ctx, *opts); });
}

} // namespace mailroom::cli
