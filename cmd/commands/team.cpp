// mailroom team: every mailbox's state as the operator sees it (contract "The team, as the
// operator sees it"): dark, not acknowledging, active or idle, what it owes and holds. A view:
// it changes nothing, presence included, whoever runs it.

#include "cli/commands.hpp"
#include "cli/support.hpp"
#include "ops/views.hpp"

namespace mailroom::cli {

namespace {

Result<ExitCode> run_team(Context& ctx)
{
  TRY_ASSIGN(const ops::TeamResult result, ops::team(ctx.session, ops::TeamRequest{}));
  TRY(print_result(ctx, result));
  return ExitCode::ok;
}

} // namespace

void register_team(CLI::App& command, Invocation& inv)
{
  command.footer("States, first match wins: retired; not_acking (seen within [delivery] presence_after,\n"
                 "default 30m, and owes an overdue delivery); active (seen); dark (not seen, owes an\n"
                 "overdue delivery); idle. Overdue: escalated, or awaiting its ack longer than\n"
                 "[delivery] stale_after. Running team never counts as being seen.\n"
                 "Examples:\n  mailroom team\n"
                 "  mailroom --json team | jq -r '.mailboxes[] | select(.state == \"dark\") | .mailbox'");
  inv.on_select(command, [](Context& ctx) { return run_team(ctx); });
}

} // namespace mailroom::cli
