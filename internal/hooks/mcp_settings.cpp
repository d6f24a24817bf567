#include "hooks/mcp_settings.hpp"

#include <vector>

#include <fmt/format.h>

#include "settingsfile/install.hpp"

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
std::string toml_body()
{
  const std::string table = mcp_toml_table();
  return table.substr(table.find('\n') + 1);
}

McpChange change_of(const settingsfile::FileReport& report)
{
  return McpChange{report.path, report.changed, report.created, report.backup};
}

} // namespace

nlohmann::ordered_json mcp_args()
{
  return nlohmann::ordered_json::array({"mcp", "--as", "${MAILROOM_IDENTITY}"});
}

nlohmann::ordered_json mcp_json_snippet(Agent)
{
  nlohmann::ordered_json server = nlohmann::ordered_json::object();
  server["command"] = "mailroom";
  server["args"] = mcp_args();
  nlohmann::ordered_json doc = nlohmann::ordered_json::object();
  doc["mcpServers"]["mailroom"] = std::move(server);
  return doc;
}

std::string mcp_toml_table()
{
  return "[mcp_servers.mailroom]\n"
         "command = \"mailroom\"\n"
         "args = [\"mcp\"]\n"
         "env_vars = [\"MAILROOM_IDENTITY\"]\n";
}

std::string mcp_snippet_text(Agent agent)
{
  return agent == Agent::codex ? mcp_toml_table() : mcp_json_snippet(agent).dump(2) + "\n";
}

std::string claude_user_command()
{
  return "claude mcp add -s user mailroom -- mailroom mcp --as '${MAILROOM_IDENTITY}'\n";
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
    const auto pwd = env.cwd();
    base = pwd;
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

Result<McpChange> install_mcp(Agent agent, const std::string& path, const settingsfile::Surroundings& around)
{
  if (agent == Agent::codex) {
    TRY_ASSIGN(const settingsfile::FileReport report,
               settingsfile::install_toml_table(path, k_mcp_owner, k_table, toml_body(), around));
    return change_of(report);
  }
  const Json want = mcp_json_snippet(agent)["mcpServers"]["mailroom"];
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
    TRY_ASSIGN(const settingsfile::FileReport report,
               settingsfile::uninstall_toml_table(path, k_mcp_owner, k_table, toml_body(), around));
    return change_of(report);
  }
  // Without a record (installed elsewhere, or the state removed): mailroom's entry when it is
  // exactly what install writes.
  const Json want = mcp_json_snippet(agent)["mcpServers"]["mailroom"];
  auto guess = [want](const Json& doc) {
    std::vector<settingsfile::Edit> edits;
    const bool ours = doc.is_object() && doc.contains("mcpServers") && doc["mcpServers"].is_object() &&
                      doc["mcpServers"].contains("mailroom") && doc["mcpServers"]["mailroom"] == want;
    if (ours) {
      edits.push_back({settingsfile::Edit::Kind::created_object, {"mcpServers"}, Json()});
      edits.push_back({settingsfile::Edit::Kind::set_member, {"mcpServers", "mailroom"}, want});
    }
    return edits;
  };
  TRY_ASSIGN(const settingsfile::FileReport report,
             settingsfile::uninstall_json(path, k_mcp_owner, guess, around));
  return change_of(report);
}

} // namespace mailroom::hooks
