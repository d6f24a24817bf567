// mailroom hooks show|install claude|codex|gemini [--user]: the settings entry that runs
// `mailroom check --hook-format <agent>` on each prompt and session start of a coding agent,
// printed, or merged into the agent's project (or user) settings file. Opens no store; reads the
// config only for [hooks] budget (a missing or broken config means the default budget).

#include <fmt/format.h>

#include "commands.hpp"
#include "config/discovery.hpp"
#include "hooks/agent.hpp"
#include "hooks/budget.hpp"
#include "hooks/settings.hpp"
#include "render/json.hpp"
#include "support.hpp"
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

text::DisplayText install_text(const hooks::InstallResult& r)
{
  const text::DisplayText path = text::sanitize_line(r.path);
  const text::DisplayText added = text::sanitize_line(join(r.merge.added));
  const text::DisplayText already = text::sanitize_line(join(r.merge.already));
  if (!r.changed) {
    return text::DisplayText::format("Already installed in {} ({}); nothing changed\n", path, already);
  }
  text::DisplayText text =
      r.created ? text::DisplayText::format("Created {} with the mailroom hook on {}", path, added)
                : text::DisplayText::format("Added the mailroom hook to {} on {}", path, added);
  if (!already.empty()) {
    text += text::DisplayText::format(" ({} already had one)", already);
  }
  if (r.backup) {
    text += text::DisplayText::format("\nBackup of the previous file: {}", text::sanitize_line(*r.backup));
  }
  text += "\nNext: give each agent its mailbox with MAILROOM_IDENTITY=<name> in its environment\n";
  return text;
}

Result<ExitCode> run_hooks_install(Context& ctx, const HooksOptions& opts)
{
  TRY_ASSIGN(hooks::Agent agent, hooks::parse_agent(opts.agent));
  TRY_ASSIGN(std::string path, hooks::settings_path(agent, scope_of(opts), ctx.env));
  TRY_ASSIGN(hooks::InstallResult result, hooks::install_hooks(path, agent, hook_budget(ctx)));
  if (!ctx.json) {
    TRY(write_text(ctx, install_text(result)));
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
  doc["already"] = result.merge.already;
  TRY(write_json(ctx, doc));
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
                 "  mailroom hooks install gemini --user");

  auto show_opts = std::make_shared<HooksOptions>();
  CLI::App* show = command.add_subcommand("show", "print the settings entry for a coding agent");
  add_agent_options(*show, *show_opts);
  show->footer("Example:\n  mailroom hooks show codex");
  inv.on_select(*show, [show_opts](Context& ctx) { return run_hooks_show(ctx, *show_opts); });

  auto install_opts = std::make_shared<HooksOptions>();
  CLI::App* install = command.add_subcommand(
      "install", "merge the entry into the agent's settings file (idempotent, keeps a .bak)");
  add_agent_options(*install, *install_opts);
  install->footer("Files: .claude/settings.json, .codex/hooks.json, .gemini/settings.json in the current\n"
                  "directory, or under $HOME with --user. Every other key is kept; a file that is not\n"
                  "valid JSON is left alone (exit 2).\nExample:\n  mailroom hooks install claude");
  inv.on_select(*install, [install_opts](Context& ctx) { return run_hooks_install(ctx, *install_opts); });
}

} // namespace mailroom::cli
