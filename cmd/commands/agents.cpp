// mailroom agents: the registry of mailboxes (list, add, remove).

#include "ops/agents.hpp"
#include "cli/commands.hpp"
#include "cli/support.hpp"
#include "ops/registry.hpp"

namespace mailroom::cli {

namespace {

struct AgentsOptions {
  std::vector<std::string> names; // add: one or more; remove: exactly one
};

Result<ExitCode> run_agents_list(Context& ctx)
{
  TRY_ASSIGN(const ops::AgentsResult result, ops::agents(ctx.session, ops::AgentsRequest{}));
  TRY(print_result(ctx, result));
  return ExitCode::ok;
}

// Both print nothing under --quiet (but their JSON under --json).
Result<ExitCode> print_change(Context& ctx, const ops::AgentsChangeResult& result)
{
  if (ctx.json || !ctx.globals.quiet) {
    TRY(print_result(ctx, result));
  }
  return ExitCode::ok;
}

Result<ExitCode> run_agents_add(Context& ctx, const AgentsOptions& opts)
{
  TRY_ASSIGN(const ops::AgentsChangeResult result, ops::add_agents(ctx.session, {opts.names}));
  return print_change(ctx, result);
}

Result<ExitCode> run_agents_remove(Context& ctx, const AgentsOptions& opts)
{
  TRY_ASSIGN(const ops::AgentsChangeResult result, ops::remove_agents(ctx.session, {opts.names}));
  return print_change(ctx, result);
}

} // namespace

void register_agents(CLI::App& command, Invocation& inv)
{
  command.require_subcommand(0, 1);
  command.footer("Examples:\n  mailroom agents\n  mailroom agents add mayor polecat rig/witness\n"
                 "  mailroom agents remove polecat");
  inv.on_select(command, [](Context& ctx) { return run_agents_list(ctx); });

  CLI::App* list = command.add_subcommand("list", "list registered mailboxes (the same as plain agents)");
  inv.on_select(*list, [](Context& ctx) { return run_agents_list(ctx); });

  auto add_opts = std::make_shared<AgentsOptions>();
  CLI::App* add = command.add_subcommand("add", "register mailboxes so they can receive mail");
  add->add_option("names", add_opts->names, "mailbox names");
  add->footer("Example:\n  mailroom agents add mayor polecat");
  inv.on_select(*add, [add_opts](Context& ctx) { return run_agents_add(ctx, *add_opts); });

  auto remove_opts = std::make_shared<AgentsOptions>();
  CLI::App* remove = command.add_subcommand("remove", "retire a mailbox (its delivered mail stays readable)");
  remove->alias("rm");
  remove->add_option("names", remove_opts->names, "mailbox names");
  remove->footer("Example:\n  mailroom agents remove polecat");
  inv.on_select(*remove, [remove_opts](Context& ctx) { return run_agents_remove(ctx, *remove_opts); });
}

} // namespace mailroom::cli
