#include "checks.hpp"

#include <unistd.h>

#include <algorithm>
#include <climits>

#include <fmt/format.h>

#include "cli/support.hpp"
#include "config/discovery.hpp"
#include "hooks/mcp_status.hpp"
#include "hooks/status.hpp"
#include "ops/schedule_firing.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "text/sanitize.hpp"

namespace mailroom::cli {

namespace {

std::string self_path()
{
  char buffer[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buffer, sizeof buffer - 1);
  return n > 0 ? std::string(buffer, static_cast<std::size_t>(n)) : std::string();
}

} // namespace

Result<ExitCode> run_checks(Context& ctx, const std::string& agent_name, bool user, bool doctor)
{
  auto config = config::discover_config(ctx.env, {ctx.globals.config, ctx.globals.db});
  hooks::StatusInputs inputs{ctx.env, config.ok() ? &*config : nullptr,
                             config.ok() ? std::string() : config.error().message, self_path()};
  const hooks::Scope scope = user ? hooks::Scope::user : hooks::Scope::project;
  std::vector<hooks::Check> checks = hooks::project_checks(inputs);
  std::vector<hooks::Agent> agents;
  if (!agent_name.empty()) {
    TRY_ASSIGN(hooks::Agent agent, hooks::parse_agent(agent_name));
    agents.push_back(agent);
  } else {
    for (const hooks::Agent agent : hooks::k_agents) {
      if (hooks::has_hooks_installed(agent, scope, ctx.env)) {
        agents.push_back(agent);
      }
    }
    if (agents.empty()) {
      checks.push_back({"", "hooks", doctor,
                        "no mailroom hook installed for claude, codex or gemini (run 'mailroom hooks install "
                        "<agent>')"});
    }
  }
  for (const hooks::Agent agent : agents) {
    const auto more = hooks::agent_checks(agent, scope, inputs);
    checks.insert(checks.end(), more.begin(), more.end());
  }
  // Every installed MCP entry, checked as a hook is (a broken one is a problem).
  bool reached = false;
  for (const hooks::Agent agent : hooks::k_agents) {
    if (!agent_name.empty() && agent != agents.front()) {
      continue;
    }
    if (hooks::has_mcp_installed(agent, scope, ctx.env)) {
      const auto more = hooks::mcp_checks(agent, scope, inputs);
      checks.insert(checks.end(), more.begin(), more.end());
    }
    for (const hooks::Scope any : {hooks::Scope::project, hooks::Scope::user}) {
      reached = reached || hooks::has_hooks_installed(agent, any, ctx.env) ||
                hooks::has_mcp_installed(agent, any, ctx.env);
    }
  }
  if (!reached && config.ok() && !config->worktree_top.empty()) {
    checks.push_back({"", "reach", false,
                      fmt::format("no installed hook or MCP entry reaches this worktree ({}): an agent here "
                                  "hears of no mail; run 'mailroom hooks install <agent>' or 'mailroom mcp "
                                  "install <agent>' here, or install with --user",
                                  config->worktree_top)});
  }
  if (doctor && config.ok()) {
    const ops::FirerCheck firer = ops::firer_check(*config, ctx.open_provider);
    checks.push_back({"", "firer", firer.ok, firer.detail});
  }
  const bool all_ok = std::all_of(checks.begin(), checks.end(), [](const hooks::Check& c) { return c.ok; });
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["ok"] = all_ok;
    doc["checks"] = nlohmann::json::array();
    for (const hooks::Check& check : checks) {
      doc["checks"].push_back(
          {{"agent", check.agent.empty() ? nlohmann::json(nullptr) : nlohmann::json(check.agent)},
           {"check", check.check},
           {"ok", check.ok},
           {"detail", check.detail}});
    }
    TRY(write_json(ctx, doc));
  } else {
    text::DisplayText text;
    for (const hooks::Check& check : checks) {
      text += text::sanitize_line(fmt::format("{:<7} {:<7} {:<15} {}", check.ok ? "ok" : "PROBLEM",
                                              check.agent.empty() ? std::string("-") : check.agent,
                                              check.check, check.detail));
      text += "\n";
    }
    const std::size_t problems = static_cast<std::size_t>(
        std::count_if(checks.begin(), checks.end(), [](const auto& c) { return !c.ok; }));
    if (all_ok) {
      text += "All is well\n";
    } else {
      text += text::DisplayText::format("{} ", problems);
      if (problems == 1) {
        text += "problem found\n";
      } else {
        text += "problems found\n";
      }
    }
    TRY(write_text(ctx, text));
  }
  return all_ok ? ExitCode::ok : ExitCode::none;
}

} // namespace mailroom::cli
