// mailroom schedule: durable schedules (contract "Schedules"). This file registers the group and
// its views and state changes (list, show, pause, resume, cancel); add and edit are
// schedule_add.cpp, run-due and run-now schedule_run.cpp. The operations are ops/schedules.hpp.

#include "cli/support.hpp"
#include "ops/schedules.hpp"
#include "schedule_commands.hpp"

namespace mailroom::cli {

namespace {

struct ListOptions {
  bool all = false;
  bool ended = false;
  std::optional<std::string> for_name;
};

struct ChangeOptions {
  std::vector<std::string> names;
  std::optional<std::string> for_name;
  bool and_open = false;
};

Result<ExitCode> run_list(Context& ctx, const ListOptions& opts)
{
  TRY_ASSIGN(const ops::ScheduleListResult result,
             ops::schedule_list(ctx.session, ops::ScheduleListRequest{opts.all, opts.for_name, opts.ended}));
  TRY(print_result(ctx, result));
  return ExitCode::ok;
}

Result<ExitCode> run_schedule_change(Context& ctx, mail::ScheduleChange::Kind kind, const ChangeOptions& opts)
{
  TRY_ASSIGN(const ops::ScheduleChangeResult result,
             ops::schedule_change(
                 ctx.session, ops::ScheduleChangeRequest{kind, opts.names, opts.for_name, opts.and_open}));
  if (ctx.json || !ctx.globals.quiet) {
    TRY(print_result(ctx, result));
  }
  return ExitCode::ok;
}

void add_for(CLI::App& command, std::optional<std::string>& for_name)
{
  command.add_option("--for", for_name, "act on NAME's schedules (an operator)")->type_name("NAME");
}

void register_change(CLI::App& schedule, Invocation& inv, const char* name, const char* what,
                     mail::ScheduleChange::Kind kind)
{
  auto opts = std::make_shared<ChangeOptions>();
  CLI::App* command = schedule.add_subcommand(name, what);
  command->add_option("names", opts->names, "schedule names")->required();
  add_for(*command, opts->for_name);
  if (kind == mail::ScheduleChange::Kind::cancel) {
    command->add_flag("--and-open", opts->and_open, "also cancel the open request of each earlier firing");
  }
  inv.on_select(*command, [opts, kind](Context& ctx) { return run_schedule_change(ctx, kind, *opts); });
}

} // namespace

void register_schedule(CLI::App& command, Invocation& inv)
{
  command.require_subcommand(0, 1);
  command.footer(
      "Examples:\n"
      "  mailroom schedule add nightly qa --cron \"0 9 * * mon-fri\" --tz Europe/Berlin \\\n"
      "      -s \"nightly report\" -m \"Send the nightly report\"\n"
      "  mailroom schedule list\n  mailroom schedule show nightly\n  mailroom schedule pause nightly\n"
      "  mailroom schedule run-due           # from cron or a systemd timer (docs/schedules.md)");
  auto list_opts = std::make_shared<ListOptions>();
  inv.on_select(command, [list_opts](Context& ctx) { return run_list(ctx, *list_opts); });

  CLI::App* list = command.add_subcommand("list", "list your schedules (the same as plain schedule)");
  list->add_flag("--all", list_opts->all, "every sender's schedules");
  list->add_flag("--ended", list_opts->ended, "also canceled and finished ones");
  add_for(*list, list_opts->for_name);
  inv.on_select(*list, [list_opts](Context& ctx) { return run_list(ctx, *list_opts); });

  auto show_opts = std::make_shared<ops::ScheduleShowRequest>();
  CLI::App* show = command.add_subcommand("show", "show a schedule and its firings, newest first");
  show->add_option("name", show_opts->name, "the schedule's name")->required();
  show->add_option("--limit", show_opts->limit, "history rows (default 20)")->type_name("N");
  add_for(*show, show_opts->for_name);
  inv.on_select(*show, [show_opts](Context& ctx) -> Result<ExitCode> {
    TRY_ASSIGN(const ops::ScheduleShowResult result, ops::schedule_show(ctx.session, *show_opts));
    TRY(print_result(ctx, result));
    return ExitCode::ok;
  });

  register_schedule_add(command, inv);
  register_schedule_edit(command, inv);
  register_change(command, inv, "pause", "stop firing until resumed (slots meanwhile are skipped)",
                  mail::ScheduleChange::Kind::pause);
  register_change(command, inv, "resume", "fire again from the next slot",
                  mail::ScheduleChange::Kind::resume);
  register_change(command, inv, "cancel", "stop a schedule for good (its history stays)",
                  mail::ScheduleChange::Kind::cancel);
  register_schedule_run_now(command, inv);
  register_schedule_run_due(command, inv);
}

} // namespace mailroom::cli
