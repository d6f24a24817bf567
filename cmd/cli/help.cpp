// mailroom help: `help <command>` is `<command> --help` (app.cpp rewrites it before parsing, see
// parser.hpp); registered here so it is listed, completed and documented like every command.

#include <fmt/format.h>

#include "commands.hpp"
#include "support.hpp"
#include "text/sanitize.hpp"

namespace mailroom::cli {

namespace {

struct HelpOptions {
  std::vector<std::string> command;
};

// Reached only when the rewrite did not happen (never from the command line): lists the commands.
Result<ExitCode> run_help(Context& ctx)
{
  text::DisplayText text{"commands:\n"};
  for (const CommandSpec& spec : commands()) {
    text += text::DisplayText::format("  {:<12} {}\n", text::sanitize_line(spec.name),
                                      text::sanitize_line(spec.description));
  }
  TRY(write_text(ctx, text));
  return ExitCode::ok;
}

} // namespace

void register_help(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<HelpOptions>();
  command.add_option("command", opts->command, "the command (and subcommand) to explain");
  command.footer("Examples:\n  mailroom help send\n  mailroom help agents add");
  inv.on_select(command, [](Context& ctx) { return run_help(ctx); });
}

} // namespace mailroom::cli
