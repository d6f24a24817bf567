#include "hooks/mcp_status.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "hooks/mcp_settings.hpp"
#include "settingsfile/file_io.hpp"
#include "settingsfile/install.hpp"
#include "text/strings.hpp"

namespace mailroom::hooks {

namespace {

// mailroom's entry as the agent's file holds it.
struct Entry {
  std::string command;
  std::vector<std::string> args;
  std::map<std::string, std::string> env;            // the entry's own variables (JSON "env")
  std::optional<std::vector<std::string>> forwarded; // Codex's env_vars; nullopt: everything
};

// The entry, nullopt when the file has none; an error (as the text to show) when the file cannot
// be read or parsed, or the entry has no command.
Result<std::optional<Entry>> read_entry(Agent agent, const std::string& path)
{
  TRY_ASSIGN(const auto content, settingsfile::read_settings_file(path));
  if (!content) {
    return std::optional<Entry>();
  }
  Entry entry;
  if (agent == Agent::codex) {
    TRY_ASSIGN(const auto table,
               settingsfile::read_toml_strings(content->text, "mcp_servers.mailroom", path));
    if (!table) {
      return std::optional<Entry>();
    }
    const auto member = [&](const char* key) {
      return table->count(key) ? table->at(key) : std::vector<std::string>();
    };
    const std::vector<std::string> command = member("command");
    entry.command = command.empty() ? std::string() : command.front();
    entry.args = member("args");
    entry.forwarded = member("env_vars");
  } else {
    TRY_ASSIGN(const nlohmann::ordered_json doc, settingsfile::parse_settings(content->text, path));
    if (!doc.is_object() || !doc.contains("mcpServers") || !doc["mcpServers"].is_object() ||
        !doc["mcpServers"].contains("mailroom")) {
      return std::optional<Entry>();
    }
    const auto& server = doc["mcpServers"]["mailroom"];
    if (server.is_object() && server.contains("command") && server["command"].is_string()) {
      entry.command = server["command"].get<std::string>();
    }
    if (server.is_object() && server.contains("args") && server["args"].is_array()) {
      for (const auto& arg : server["args"]) {
        entry.args.push_back(arg.is_string() ? arg.get<std::string>() : arg.dump());
      }
    }
    if (server.is_object() && server.contains("env") && server["env"].is_object()) {
      for (const auto& [key, value] : server["env"].items()) {
        entry.env[key] = value.is_string() ? value.get<std::string>() : value.dump();
      }
    }
  }
  if (entry.command.empty()) {
    return make_error(ErrorCode::usage, fmt::format("{}: mailroom's MCP entry has no command", path));
  }
  return std::optional<Entry>(std::move(entry));
}

// The environment the agent starts the server in: this one, with the entry's own variables
// (expanded as the agent expands them), and for Codex only the identity variables env_vars names.
class ServerEnvironment final : public util::Environment {
public:
  ServerEnvironment(const util::Environment& base, Agent agent, const Entry& entry)
      : m_base(base), m_forwarded(entry.forwarded)
  {
    for (const auto& [name, value] : entry.env) {
      m_own[name] = expand_args(agent, {value}, base).front();
    }
  }
  std::optional<std::string> get(std::string_view name) const override
  {
    if (const auto own = m_own.find(std::string(name)); own != m_own.end()) {
      return own->second;
    }
    const bool identity = name == k_mcp_identity_variable || name.rfind("GC_", 0) == 0;
    if (identity && m_forwarded &&
        std::find(m_forwarded->begin(), m_forwarded->end(), name) == m_forwarded->end()) {
      return std::nullopt;
    }
    return m_base.get(name);
  }
  std::string cwd() const override { return m_base.cwd(); }

private:
  const util::Environment& m_base;
  std::optional<std::vector<std::string>> m_forwarded;
  std::map<std::string, std::string> m_own;
};

// The value of the last --as (or --as=VALUE) in `args`; nullopt when none.
std::optional<std::string> as_flag(const std::vector<std::string>& args)
{
  std::optional<std::string> as;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--as" && i + 1 < args.size()) {
      as = args[++i];
    } else if (args[i].rfind("--as=", 0) == 0) {
      as = args[i].substr(5);
    }
  }
  return as;
}

} // namespace

std::string mcp_entry_file(Agent agent, Scope scope, const util::Environment& env)
{
  if (agent == Agent::claude && scope == Scope::user) {
    const auto home = env.get("HOME");
    return home && !home->empty() ? *home + "/.claude.json" : std::string();
  }
  auto path = mcp_settings_path(agent, scope == Scope::user, env);
  return path.ok() ? *path : std::string();
}

bool has_mcp_installed(Agent agent, Scope scope, const util::Environment& env)
{
  const std::string path = mcp_entry_file(agent, scope, env);
  if (path.empty()) {
    return false;
  }
  auto entry = read_entry(agent, path);
  return !entry.ok() || entry->has_value();
}

std::vector<Check> mcp_checks(Agent agent, Scope scope, const StatusInputs& in)
{
  const std::string name(to_string(agent));
  const std::string path = mcp_entry_file(agent, scope, in.env);
  auto read = read_entry(agent, path);
  if (!read.ok()) {
    return {{name, "mcp_entry", false, read.error().message}};
  }
  if (!read->has_value()) {
    return {{name, "mcp_entry", false,
             fmt::format("no mailroom MCP entry in {} (run 'mailroom mcp install {}')", path, name)}};
  }
  const Entry& entry = **read;
  std::vector<Check> checks;
  checks.push_back(
      {name, "mcp_entry", true, fmt::format("{}: {} {}", path, entry.command, text::join(entry.args, " "))});
  checks.push_back(program_check(name, "mcp_command", entry.command, in));
  const ServerEnvironment server_env(in.env, agent, entry);
  const std::vector<std::string> args = expand_args(agent, entry.args, in.env);
  StatusInputs as_started{server_env, in.config, in.config_error, in.self};
  checks.push_back(identity_check(name, "mcp_identity", as_flag(args), as_started));
  return checks;
}

} // namespace mailroom::hooks
