#include "hooks/mcp_settings.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "settingsfile/install.hpp"
#include "settingsfile/placement.hpp"

namespace mailroom::hooks {

namespace {

// The owner of the additions in the settings-file module's record: uninstall removes only these.
constexpr std::string_view k_mcp_owner = "mcp";
constexpr std::string_view k_table = "mcp_servers.mailroom";

using settingsfile::Json;

Error usage(std::string message, std::string hint = {})
{
  return make_error(ErrorCode::usage, std::move(message), std::move(hint));
}

// The table's key lines (the body under its header).
std::string toml_body(bool digest)
{
  const std::string table = mcp_toml_table(digest);
  return table.substr(table.find('\n') + 1);
}

// The value of `name` in `env`; nullopt when unset (an empty value is set).
std::optional<std::string> variable(const util::Environment& env, std::string_view name)
{
  return env.get(std::string(name));
}

bool is_name_char(char c)
{
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

// Claude Code: `${NAME}` and `${NAME:-default}` (the default taken as written); an unset `${NAME}`
// stays as written; `$NAME` is never expanded.
std::string expand_claude(const std::string& arg, const util::Environment& env)
{
  std::string out;
  std::size_t pos = 0;
  while (pos < arg.size()) {
    const std::size_t open = arg.find("${", pos);
    const std::size_t close = open == std::string::npos ? std::string::npos : arg.find('}', open + 2);
    if (close == std::string::npos) {
      out += arg.substr(pos);
      break;
    }
    out += arg.substr(pos, open - pos);
    const std::string inner = arg.substr(open + 2, close - open - 2);
    const std::size_t dash = inner.find(":-");
    const std::string name = inner.substr(0, dash);
    const auto value = variable(env, name);
    if (dash == std::string::npos) {
      out += value ? *value : arg.substr(open, close - open + 1);
    } else {
      out += value && !value->empty() ? *value : inner.substr(dash + 2);
    }
    pos = close + 1;
  }
  return out;
}

// Gemini CLI: `$NAME` and `${NAME}` (NAME anything up to `}`), an unset one left as written.
std::string expand_gemini(const std::string& arg, const util::Environment& env)
{
  std::string out;
  std::size_t pos = 0;
  while (pos < arg.size()) {
    const std::size_t dollar = arg.find('$', pos);
    if (dollar == std::string::npos) {
      out += arg.substr(pos);
      break;
    }
    out += arg.substr(pos, dollar - pos);
    std::size_t end = dollar + 1;
    std::string name;
    if (end < arg.size() && arg[end] == '{') {
      const std::size_t close = arg.find('}', end + 1);
      if (close == std::string::npos || close == end + 1) {
        out += '$';
        pos = dollar + 1;
        continue;
      }
      name = arg.substr(end + 1, close - end - 1);
      end = close + 1;
    } else {
      while (end < arg.size() && is_name_char(arg[end])) {
        ++end;
      }
      name = arg.substr(dollar + 1, end - dollar - 1);
    }
    const auto value = name.empty() ? std::nullopt : variable(env, name);
    out += value ? *value : arg.substr(dollar, end - dollar);
    pos = std::max(end, dollar + 1);
  }
  return out;
}

McpChange change_of(const settingsfile::FileReport& report)
{
  return McpChange{report.path, report.changed, report.created, report.backup};
}

} // namespace

nlohmann::ordered_json mcp_args(Agent agent, bool digest)
{
  nlohmann::ordered_json args = nlohmann::ordered_json::array({"mcp"});
  if (agent == Agent::claude) {
    args.push_back("--as");
    args.push_back(fmt::format("${{{}:-}}", k_mcp_identity_variable));
  }
  if (digest) {
    args.push_back("--digest");
  }
  return args;
}

nlohmann::ordered_json mcp_json_snippet(Agent agent, bool digest)
{
  nlohmann::ordered_json server = nlohmann::ordered_json::object();
  server["command"] = "mailroom";
  server["args"] = mcp_args(agent, digest);
  nlohmann::ordered_json doc = nlohmann::ordered_json::object();
  doc["mcpServers"]["mailroom"] = std::move(server);
  return doc;
}

std::string mcp_toml_table(bool digest)
{
  return fmt::format("[mcp_servers.mailroom]\n"
                     "command = \"mailroom\"\n"
                     "args = [\"mcp\"{}]\n"
                     "env_vars = [\"{}\"]\n",
                     digest ? ", \"--digest\"" : "", k_mcp_identity_variable);
}

std::string mcp_snippet_text(Agent agent, bool digest)
{
  return agent == Agent::codex ? mcp_toml_table(digest) : mcp_json_snippet(agent, digest).dump(2) + "\n";
}

std::string claude_user_command(bool digest)
{
  // Without --as: the server inherits Claude Code's environment, and mailroom's own order
  // ($MAILROOM_IDENTITY, then .mailroom-identity) decides.
  return fmt::format("claude mcp add -s user mailroom -- mailroom mcp{}\n", digest ? " --digest" : "");
}

std::vector<std::string> expand_args(Agent agent, const std::vector<std::string>& args,
                                     const util::Environment& env)
{
  std::vector<std::string> out;
  for (const std::string& arg : args) {
    switch (agent) {
    case Agent::claude:
      out.push_back(expand_claude(arg, env));
      break;
    case Agent::gemini:
      out.push_back(expand_gemini(arg, env));
      break;
    case Agent::codex:
      out.push_back(arg);
      break;
    }
  }
  return out;
}

Result<std::string> mcp_settings_path(Agent agent, bool user, const util::Environment& env)
{
  std::string base;
  if (user) {
    const auto home = env.get("HOME");
    if (!home || home->empty()) {
      return usage("--user needs $HOME");
    }
    base = *home;
  } else {
    base = settingsfile::project_placement(env).dir;
  }
  switch (agent) {
  case Agent::claude:
    return base + "/.mcp.json";
  case Agent::codex:
    return base + "/.codex/config.toml";
  case Agent::gemini:
    return base + "/.gemini/settings.json";
  }
  return usage("unknown agent");
}

Result<McpChange> install_mcp(Agent agent, const std::string& path, const settingsfile::Surroundings& around,
                              bool digest)
{
  if (agent == Agent::codex) {
    TRY_ASSIGN(const settingsfile::FileReport report,
               settingsfile::install_toml_table(path, k_mcp_owner, k_table, toml_body(digest), around));
    return change_of(report);
  }
  const Json want = mcp_json_snippet(agent, digest)["mcpServers"]["mailroom"];
  auto change = [&](settingsfile::JsonEditor& editor) -> Result<void> {
    if (const Json* servers = editor.find({"mcpServers"}); servers != nullptr && !servers->is_object()) {
      return usage(fmt::format("{}: \"mcpServers\" is not an object", editor.file()));
    }
    if (const Json* present = editor.find({"mcpServers", "mailroom"})) {
      if (*present == want) {
        return {};
      }
      return usage(
          fmt::format("{}: mcpServers.mailroom is already there and differs from mailroom's", editor.file()),
          fmt::format("remove it (mailroom mcp uninstall {}) or edit it by hand", to_string(agent)));
    }
    TRY(editor.set_member({"mcpServers", "mailroom"}, want));
    return {};
  };
  TRY_ASSIGN(const settingsfile::FileReport report,
             settingsfile::install_json(path, k_mcp_owner, change, around));
  return change_of(report);
}

Result<McpChange> uninstall_mcp(Agent agent, const std::string& path,
                                const settingsfile::Surroundings& around)
{
  if (agent == Agent::codex) {
    auto removed = settingsfile::uninstall_toml_table(path, k_mcp_owner, k_table, toml_body(false), around);
    if (!removed.ok() && removed.error().code == ErrorCode::usage) {
      // Installed with --digest: that table, else the first error stands.
      auto with_digest =
          settingsfile::uninstall_toml_table(path, k_mcp_owner, k_table, toml_body(true), around);
      if (with_digest.ok()) {
        return change_of(*with_digest);
      }
    }
    TRY_ASSIGN(const settingsfile::FileReport report, std::move(removed));
    return change_of(report);
  }
  // Without a record (installed elsewhere, or the state removed): mailroom's entry when it is
  // exactly what install writes, with or without --digest.
  auto guess = [agent](const Json& doc) {
    std::vector<settingsfile::Edit> edits;
    const bool has = doc.is_object() && doc.contains("mcpServers") && doc["mcpServers"].is_object() &&
                     doc["mcpServers"].contains("mailroom");
    for (const bool digest : {false, true}) {
      const Json want = mcp_json_snippet(agent, digest)["mcpServers"]["mailroom"];
      if (has && doc["mcpServers"]["mailroom"] == want) {
        edits.push_back({settingsfile::Edit::Kind::created_object, {"mcpServers"}, Json()});
        edits.push_back({settingsfile::Edit::Kind::set_member, {"mcpServers", "mailroom"}, want});
        break;
      }
    }
    return edits;
  };
  TRY_ASSIGN(const settingsfile::FileReport report,
             settingsfile::uninstall_json(path, k_mcp_owner, guess, around));
  return change_of(report);
}

} // namespace mailroom::hooks
