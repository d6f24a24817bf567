// mailroom doctor: is this project's mailroom set up as every agent will see it? The configuration
// in force and a worktree's ignored mailroom.toml, a worktree's own store left behind (with the
// export | import line that merges it), every installed agent hook and MCP entry (`hooks status`'s
// checks; a worktree none reaches is a problem), and
// whether a firer runs while schedules wait (the store opened read-only; `no_firer`). Exit 0 when
// all is well, 1 when a problem is found.

#include "checks.hpp"
#include "cli/commands.hpp"

namespace mailroom::cli {

namespace {

struct DoctorOptions {
  bool user = false;
};

} // namespace

void register_doctor(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<DoctorOptions>();
  command.add_flag("--user", opts->user, "check the user-level hook files instead of the project's");
  command.footer(
      "Examples:\n  mailroom doctor\n  mailroom --json doctor | jq '.checks[] | select(.ok | not)'");
  inv.on_select(command, [opts](Context& ctx) { return run_checks(ctx, std::string(), opts->user, true); });
}

} // namespace mailroom::cli
