// mailroom mcp show|install|uninstall claude|codex|gemini [--user]: the MCP server entry of a
// coding agent, printed or merged into its configuration (internal/hooks/mcp_settings.hpp, on the
// settings-file module that hooks install uses).
// Opens no store. Claude Code's user scope is printed as a `claude mcp add` line, never written:
// Claude Code rewrites its user file while it runs.

#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/support.hpp"
#include "hooks/agent.hpp"
#include "hooks/mcp_settings.hpp"
#include "render/json.hpp"
#include "settingsfile/state.hpp"
#include "surroundings.hpp"
#include "text/sanitize.hpp"

namespace mailroom::cli {

namespace {

struct McpInstallOptions {
  std::string agent;
  bool user = false;
  bool digest = false; // show, install: the entry starts `mailroom mcp --digest`
};

Result<ExitCode> run_show(Context& ctx, const McpInstallOptions& opts)
{
  TRY_ASSIGN(const hooks::Agent agent, hooks::parse_agent(opts.agent));
  const bool print_command = agent == hooks::Agent::claude && opts.user;
  const std::string snippet =
      print_command ? hooks::claude_user_command(opts.digest) : hooks::mcp_snippet_text(agent, opts.digest);
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["agent"] = std::string(hooks::to_string(agent));
    doc["snippet"] = snippet;
    if (!print_command) {
      TRY_ASSIGN(doc["path"], hooks::mcp_settings_path(agent, opts.user, ctx.env));
    }
    TRY(write_json(ctx, doc));
    return ExitCode::ok;
  }
  TRY(write_data(ctx, snippet)); // program text, machine output: a valid file or a command line
  return ExitCode::ok;
}

Result<ExitCode> run_change(Context& ctx, const McpInstallOptions& opts, bool install)
{
  TRY_ASSIGN(const hooks::Agent agent, hooks::parse_agent(opts.agent));
  if (agent == hooks::Agent::claude && opts.user) {
    if (ctx.json) {
      nlohmann::json doc = render::json_document();
      doc["ok"] = true;
      doc["changed"] = false;
      doc["command"] = install ? hooks::claude_user_command(opts.digest)
                               : std::string("claude mcp remove -s user mailroom\n");
      TRY(write_json(ctx, doc));
    } else {
      ctx.out.err("mailroom mcp: Claude Code rewrites its user file while it runs; run this instead:\n");
      TRY(write_data(ctx, install ? hooks::claude_user_command(opts.digest)
                                  : std::string("claude mcp remove -s user mailroom\n")));
    }
    return ExitCode::ok;
  }
  TRY_ASSIGN(const std::string path, hooks::mcp_settings_path(agent, opts.user, ctx.env));
  TRY_ASSIGN(const hooks::McpChange change,
             install ? hooks::install_mcp(agent, path, surroundings(ctx), opts.digest)
                     : hooks::uninstall_mcp(agent, path, surroundings(ctx)));
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["ok"] = true;
    doc["path"] = change.path;
    doc["changed"] = change.changed;
    doc["created"] = change.created;
    doc["backup"] = change.backup ? nlohmann::json(*change.backup) : nlohmann::json(nullptr);
    TRY(write_json(ctx, doc));
    return ExitCode::ok;
  }
  const text::DisplayText where = text::sanitize_line(change.path);
  if (!change.changed) {
    TRY(write_text(ctx, install ? text::DisplayText::format("mailroom is already in {}\n", where)
                                : text::DisplayText::format("mailroom is not in {}\n", where)));
  } else {
    TRY(write_text(ctx, install ? text::DisplayText::format("Added mailroom to {}\n", where)
                                : text::DisplayText::format("Removed mailroom from {}\n", where)));
    if (change.backup) {
      TRY(write_text(ctx, text::DisplayText::format("Backup: {}\n", text::sanitize_line(*change.backup))));
    }
  }
  return ExitCode::ok;
}

void add_agent_options(CLI::App& command, McpInstallOptions& opts, bool digest)
{
  command.add_option("agent", opts.agent, "claude, codex or gemini")->required();
  command.add_flag("--user", opts.user, "the user-level configuration under $HOME instead of the project's");
  if (digest) {
    command.add_flag("--digest", opts.digest,
                     "the entry runs 'mailroom mcp --digest' (an unread line in every tool result)");
  }
}

} // namespace

void register_mcp_install(CLI::App& command, Invocation& inv)
{
  auto show_opts = std::make_shared<McpInstallOptions>();
  CLI::App* show = command.add_subcommand("show", "print the MCP server entry for a coding agent");
  add_agent_options(*show, *show_opts, true);
  inv.on_select(*show, [show_opts](Context& ctx) { return run_show(ctx, *show_opts); });

  auto install_opts = std::make_shared<McpInstallOptions>();
  CLI::App* install = command.add_subcommand(
      "install", "add the MCP server entry to the agent's configuration (idempotent, backed up)");
  add_agent_options(*install, *install_opts, true);
  install->footer(
      "Files: .mcp.json (Claude Code), .codex/config.toml, .gemini/settings.json at the worktree's top\n"
      "(else the current directory), or under $HOME with --user (Claude Code --user prints a\n"
      "'claude mcp add' line). The identity: Claude Code --as ${MAILROOM_IDENTITY:-}; Gemini CLI and\n"
      "Codex (env_vars) pass $MAILROOM_IDENTITY on; unset, .mailroom-identity decides.");
  inv.on_select(*install, [install_opts](Context& ctx) { return run_change(ctx, *install_opts, true); });

  auto uninstall_opts = std::make_shared<McpInstallOptions>();
  CLI::App* uninstall = command.add_subcommand("uninstall", "remove exactly mailroom's MCP server entry");
  add_agent_options(*uninstall, *uninstall_opts, false);
  inv.on_select(*uninstall,
                [uninstall_opts](Context& ctx) { return run_change(ctx, *uninstall_opts, false); });
}

} // namespace mailroom::cli
