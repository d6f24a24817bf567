// mailroom hooks show|install|uninstall|status claude|codex|gemini [--user]: the settings entry
// that runs `mailroom check --hook-format <agent>` on each prompt and session start of a coding
// agent, printed, merged into the agent's project (or user) settings file at the top of the git
// worktree, removed again, or checked. Opens no store; reads the config for [hooks] budget (a
// missing or broken config means the default budget) and, in status, for identity and store.

#include <fmt/format.h>

#include "checks.hpp"
#include "cli/commands.hpp"
#include "cli/support.hpp"
#include "config/discovery.hpp"
#include "hooks/agent.hpp"
#include "hooks/budget.hpp"
#include "hooks/settings.hpp"
#include "hooks/status.hpp"
#include "render/json.hpp"
#include "settingsfile/placement.hpp"
#include "surroundings.hpp"
#include "text/sanitize.hpp"

namespace mailroom::cli {

namespace {

struct HooksOptions {
  std::string agent;
  bool user = false; // the user-level file under $HOME instead of the project's
};

hooks::Scope scope_of(const HooksOptions& opts)
{
  return opts.user ? hooks::Scope::user : hooks::Scope::project;
}

// The hook's time budget the agent's timeout is written above: $MAILROOM_HOOK_BUDGET, else the
// config's [hooks] budget when a config is found and valid, else the default.
std::chrono::milliseconds hook_budget(const Context& ctx)
{
  const auto env = ctx.env.get(hooks::k_budget_env);
  if (env) {
    return hooks::early_budget(std::nullopt, env);
  }
  auto config = config::discover_config(ctx.env, {ctx.globals.config, ctx.globals.db});
  return config.ok() ? std::chrono::milliseconds(config->hook_budget_ms.value) : mail::k_default_hook_budget;
}

// The ordered settings document as a plain JSON value for the --json envelope.
nlohmann::json plain(const nlohmann::ordered_json& doc)
{
  return nlohmann::json::parse(doc.dump());
}

Result<ExitCode> run_hooks_show(Context& ctx, const HooksOptions& opts)
{
  TRY_ASSIGN(hooks::Agent agent, hooks::parse_agent(opts.agent));
  const nlohmann::ordered_json snippet = hooks::settings_snippet(agent, hook_budget(ctx));
  if (!ctx.json) {
    // Only the JSON, so `mailroom hooks show claude > file` is a valid settings file.
    // nlohmann's dump of a document built from program text: machine output, not display text.
    TRY(write_data(ctx, snippet.dump(2) + "\n"));
    return ExitCode::ok;
  }
  TRY_ASSIGN(std::string path, hooks::settings_path(agent, scope_of(opts), ctx.env));
  nlohmann::json doc = render::json_document();
  doc["agent"] = std::string(hooks::to_string(agent));
  doc["path"] = path;
  doc["settings"] = plain(snippet);
  TRY(write_json(ctx, doc));
  return ExitCode::ok;
}

// Who sees a project file (which worktrees, tracked or not); "" for the user's file.
std::string visibility_of(const Context& ctx, const HooksOptions& opts, const std::string& path)
{
  if (opts.user) {
    return {};
  }
  const settingsfile::Placement placement = settingsfile::project_placement(ctx.env);
  const settingsfile::Tracked tracked =
      placement.in_git ? settingsfile::tracked_by_git(placement.dir, path) : settingsfile::Tracked::unknown;
  return settingsfile::visibility(placement, path, tracked);
}

text::DisplayText install_text(const hooks::InstallResult& r, hooks::Agent agent, const std::string& seen)
{
  const text::DisplayText path = text::sanitize_line(r.path);
  const text::DisplayText added = text::sanitize_line(join(r.merge.added));
  const text::DisplayText already = text::sanitize_line(join(r.merge.already));
  text::DisplayText text;
  if (!r.changed) {
    text = text::DisplayText::format("Already installed in {} ({}); nothing changed\n", path, already);
  } else {
    text = r.created ? text::DisplayText::format("Created {} with the mailroom hook on {}", path, added)
                     : text::DisplayText::format("Added the mailroom hook to {} on {}", path, added);
    if (!already.empty()) {
      text += text::DisplayText::format(" ({} already had one)", already);
    }
    text += "\n";
    if (r.backup) {
      text += text::DisplayText::format("Backup of the previous file: {}\n", text::sanitize_line(*r.backup));
    }
  }
  if (!seen.empty()) {
    text += text::DisplayText::format("Seen by: {}\n", text::sanitize_line(seen));
  }
  if (r.switch_set) {
    text += "Set \"hooksConfig\": {\"enabled\": true} in that file (Gemini CLI's switch for hooks)\n";
  }
  if (r.switch_off) {
    text += text::DisplayText::format("Warning: that file turns hooks off; set {} there\n",
                                      text::sanitize_line(*r.switch_off));
  }
  if (const auto sw = hooks::hook_switch(agent); sw && !sw->in_installed_file) {
    text += text::DisplayText::format(
        "Codex: hooks are on by default; older releases need {} in {}. Codex loads a project's .codex/ only "
        "once you trust the project, and asks you to review new hooks (/hooks)\n",
        text::sanitize_line(sw->setting), text::sanitize_line(sw->where));
  }
  for (const std::string& other : r.merge.other_mail_hooks) {
    text +=
        text::DisplayText::format("Warning: the file also runs another mail reminder ({}); the agent gets "
                                  "two reminders: remove that one\n",
                                  text::sanitize_line(other));
  }
  if (r.changed) {
    text += "Next: give each agent its mailbox with MAILROOM_IDENTITY=<name> in its environment, or a "
            ".mailroom-identity file at its worktree's top\n";
  }
  return text;
}

Result<ExitCode> run_hooks_install(Context& ctx, const HooksOptions& opts)
{
  TRY_ASSIGN(hooks::Agent agent, hooks::parse_agent(opts.agent));
  TRY_ASSIGN(std::string path, hooks::settings_path(agent, scope_of(opts), ctx.env));
  TRY_ASSIGN(hooks::InstallResult result,
             hooks::install_hooks(path, agent, hook_budget(ctx), surroundings(ctx)));
  const std::string seen = visibility_of(ctx, opts, result.path);
  if (!ctx.json) {
    TRY(write_text(ctx, install_text(result, agent, seen)));
    return ExitCode::ok;
  }
  nlohmann::json doc = render::json_document();
  doc["ok"] = true;
  doc["agent"] = std::string(hooks::to_string(agent));
  doc["path"] = result.path;
  doc["created"] = result.created;
  doc["changed"] = result.changed;
  doc["backup"] = result.backup ? nlohmann::json(*result.backup) : nlohmann::json(nullptr);
  doc["added"] = result.merge.added;
  doc["added_count"] = result.merge.added.size();
  doc["already"] = result.merge.already;
  doc["visibility"] = seen.empty() ? nlohmann::json(nullptr) : nlohmann::json(seen);
  doc["switch_set"] = result.switch_set;
  doc["other_mail_hooks"] = result.merge.other_mail_hooks;
  TRY(write_json(ctx, doc));
  return ExitCode::ok;
}

Result<ExitCode> run_hooks_uninstall(Context& ctx, const HooksOptions& opts)
{
  TRY_ASSIGN(hooks::Agent agent, hooks::parse_agent(opts.agent));
  TRY_ASSIGN(std::string path, hooks::settings_path(agent, scope_of(opts), ctx.env));
  TRY_ASSIGN(settingsfile::FileReport report, hooks::uninstall_hooks(path, agent, surroundings(ctx)));
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["ok"] = true;
    doc["agent"] = std::string(hooks::to_string(agent));
    doc["path"] = report.path;
    doc["changed"] = report.changed;
    doc["removed_file"] = report.removed;
    doc["removed_count"] = report.edits.size();
    doc["backup"] = report.backup ? nlohmann::json(*report.backup) : nlohmann::json(nullptr);
    doc["left_count"] = report.left.size();
    TRY(write_json(ctx, doc));
    return ExitCode::ok;
  }
  text::DisplayText text;
  const text::DisplayText shown = text::sanitize_line(report.path);
  if (!report.changed) {
    text = text::DisplayText::format("No mailroom hook to remove in {}; nothing changed\n", shown);
  } else if (report.removed) {
    text = text::DisplayText::format("Removed {} (mailroom had created it)\n", shown);
  } else {
    text = text::DisplayText::format("Removed what mailroom had added to {}\n", shown);
  }
  if (report.backup) {
    text +=
        text::DisplayText::format("Backup of the previous file: {}\n", text::sanitize_line(*report.backup));
  }
  if (!report.left.empty()) {
    text += text::DisplayText::format("Left {} recorded addition(s) that changed since install\n",
                                      report.left.size());
  }
  TRY(write_text(ctx, text));
  return ExitCode::ok;
}

void add_agent_options(CLI::App& command, HooksOptions& opts)
{
  command.add_option("agent", opts.agent, "claude, codex or gemini")->required()->type_name("AGENT");
  command.add_flag("--user", opts.user,
                   "the user-level file (~/.claude/settings.json, ~/.codex/hooks.json, "
                   "~/.gemini/settings.json) instead of the project's");
}

} // namespace

void register_hooks(CLI::App& command, Invocation& inv)
{
  command.require_subcommand(0, 1);
  command.footer("Examples:\n  mailroom hooks show claude\n  mailroom hooks install claude\n"
                 "  mailroom hooks install gemini --user\n  mailroom hooks status");

  auto show_opts = std::make_shared<HooksOptions>();
  CLI::App* show = command.add_subcommand("show", "print the settings entry for a coding agent");
  add_agent_options(*show, *show_opts);
  show->footer("Example:\n  mailroom hooks show codex");
  inv.on_select(*show, [show_opts](Context& ctx) { return run_hooks_show(ctx, *show_opts); });

  auto install_opts = std::make_shared<HooksOptions>();
  CLI::App* install = command.add_subcommand(
      "install", "merge the entry into the agent's settings file (idempotent, keeps a .bak)");
  add_agent_options(*install, *install_opts);
  install->footer(
      "Files: .claude/settings.json, .codex/hooks.json, .gemini/settings.json at the top of the git\n"
      "worktree (else the current directory), or under $HOME with --user. Every other key is\n"
      "kept; backups go to $XDG_STATE_HOME/mailroom/backups/; a file that is not valid JSON is\n"
      "left alone (exit 2).\nExample:\n  mailroom hooks install claude");
  inv.on_select(*install, [install_opts](Context& ctx) { return run_hooks_install(ctx, *install_opts); });

  auto uninstall_opts = std::make_shared<HooksOptions>();
  CLI::App* uninstall =
      command.add_subcommand("uninstall", "remove exactly what 'hooks install' added to the settings file");
  add_agent_options(*uninstall, *uninstall_opts);
  uninstall->footer("Example:\n  mailroom hooks uninstall codex");
  inv.on_select(*uninstall,
                [uninstall_opts](Context& ctx) { return run_hooks_uninstall(ctx, *uninstall_opts); });

  auto status_opts = std::make_shared<HooksOptions>();
  CLI::App* status = command.add_subcommand(
      "status",
      "check each agent's hook: settings file, command, switch, identity, store (exit 1 on a problem)");
  status->add_option("agent", status_opts->agent, "claude, codex or gemini (default: those installed)")
      ->type_name("AGENT");
  status->add_flag("--user", status_opts->user, "check the user-level files instead of the project's");
  status->footer("Example:\n  mailroom hooks status\n  mailroom --json hooks status claude");
  inv.on_select(*status, [status_opts](Context& ctx) {
    return run_checks(ctx, status_opts->agent, status_opts->user, false);
  });
}

} // namespace mailroom::cli
