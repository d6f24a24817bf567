// mailroom delete: an archive on mailroom's stores (nothing is destroyed); through exec, the
// script's own `delete` (archive only when the script has none, said on stderr).

#include "acting.hpp"
#include "change.hpp"
#include "cli/commands.hpp"

namespace mailroom::cli {

namespace {

struct DeleteOptions {
  std::vector<std::string> ids;
  std::optional<std::string> for_name; // --for
};

Result<ExitCode> run_delete(Context& ctx, const DeleteOptions& opts)
{
  return run_change(ctx, opts.ids, mail::Change::remove, {"Deleted message {}", "Already deleted {}"},
                    opts.for_name);
}

} // namespace

void register_delete(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<DeleteOptions>();
  command.add_option("ids", opts->ids, "message IDs");
  add_for_option(command, opts->for_name);
  command.footer("Example:\n  mailroom delete mr-a1b2c3 mr-d4e5f6");
  inv.on_select(command, [opts](Context& ctx) { return run_delete(ctx, *opts); });
}

} // namespace mailroom::cli
