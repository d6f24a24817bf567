// mailroom agents: the registry of mailboxes (list, add, remove) and each one's wake target (set).

#include "ops/agents.hpp"
#include "cli/commands.hpp"
#include "cli/support.hpp"
#include "ops/registry.hpp"
#include "ops/wake.hpp"

namespace mailroom::cli {

namespace {

struct AgentsOptions {
  std::vector<std::string> names; // add: one or more; remove: exactly one
};

struct SetOptions {
  std::string name;
  bool wake = false; // --wake: its words are cut off before parsing (Invocation::exec_argv)
  bool no_wake = false;
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

Result<ExitCode> run_agents_set(Context& ctx, const SetOptions& opts, const std::vector<std::string>& words)
{
  if (opts.wake && words.empty()) {
    return usage_error("--wake needs a target: ARGV…, @NAME or tmux:TARGET");
  }
  ops::WakeSetRequest request{opts.name, opts.wake ? words : std::vector<std::string>{}, opts.no_wake};
  TRY_ASSIGN(const ops::WakeSetResult result, ops::set_wake(ctx.session, request));
  if (ctx.json) {
    TRY(write_json(ctx, ops::to_json(result)));
  } else if (!ctx.globals.quiet) {
    TRY(write_text(ctx, ops::to_text(result)));
  }
  return ExitCode::ok;
}

} // namespace

void register_agents(CLI::App& command, Invocation& inv)
{
  command.require_subcommand(0, 1);
  command.footer("Examples:\n  mailroom agents\n  mailroom agents add mayor polecat rig/witness\n"
                 "  mailroom agents remove polecat\n  mailroom agents set polecat --wake tmux:rig:0.1");
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

  auto set_opts = std::make_shared<SetOptions>();
  CLI::App* set = command.add_subcommand("set", "set or remove a mailbox's wake target (docs/wake.md)");
  set->add_option("name", set_opts->name, "the mailbox")->required();
  set->add_flag("--wake", set_opts->wake,
                "wake it with what follows: ARGV… (placeholders {to} {id} {from} {subject} {count}), "
                "@NAME of [wake.targets], or tmux:TARGET");
  set->add_flag("--no-wake", set_opts->no_wake, "remove its wake target");
  set->footer("Examples:\n  mailroom agents set bob --wake tmux:agents:0.1\n"
              "  mailroom agents set bob --wake notify-send \"mail for {to}\" \"{subject}\"\n"
              "  mailroom agents set bob --wake @pager\n  mailroom agents set bob --no-wake");
  const std::vector<std::string>* words = &inv.exec_argv;
  inv.on_select(*set, [set_opts, words](Context& ctx) { return run_agents_set(ctx, *set_opts, *words); });
}

} // namespace mailroom::cli
