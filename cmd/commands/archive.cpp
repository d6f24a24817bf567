// mailroom archive: archive for the caller only; reversible with unarchive.

#include "acting.hpp"
#include "change.hpp"
#include "cli/commands.hpp"

namespace mailroom::cli {

namespace {

struct ArchiveOptions {
  std::vector<std::string> ids;
  std::optional<std::string> for_name; // --for
};

Result<ExitCode> run_archive(Context& ctx, const ArchiveOptions& opts)
{
  return run_change(ctx, opts.ids, mail::Change::archive, {"Archived message {}", "Already archived {}"},
                    opts.for_name);
}

} // namespace

void register_archive(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<ArchiveOptions>();
  command.add_option("ids", opts->ids, "message IDs");
  add_for_option(command, opts->for_name);
  command.footer("Example:\n  mailroom archive mr-a1b2c3 mr-d4e5f6");
  inv.on_select(command, [opts](Context& ctx) { return run_archive(ctx, *opts); });
}

} // namespace mailroom::cli
