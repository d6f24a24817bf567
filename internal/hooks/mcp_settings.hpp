#pragma once

// The MCP server entry of a coding agent (`mailroom mcp show|install|uninstall`): what each
// agent's configuration holds for `mailroom mcp`, and adding or removing exactly that entry
// (contract "MCP server", "Install"). The identity is passed explicitly: Claude Code and Gemini CLI
// expand `${MAILROOM_IDENTITY}` in the arguments; Codex forwards the variables its `env_vars`
// names. Files are changed by the settings-file module, as hooks install changes them: merged,
// the old content backed up under $XDG_STATE_HOME/mailroom/backups/ (never beside the file), an
// atomic rename, nothing written when nothing changes, and what was added recorded under the
// owner "mcp" so that uninstall removes exactly that.

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "hooks/agent.hpp"
#include "settingsfile/state.hpp"
#include "util/environment.hpp"

namespace mailroom::hooks {

// The arguments of the server: ["mcp", "--as", "${MAILROOM_IDENTITY}"].
nlohmann::ordered_json mcp_args();

// Claude Code and Gemini CLI: {"mcpServers": {"mailroom": {"command": "mailroom", "args": [...]}}}.
nlohmann::ordered_json mcp_json_snippet(Agent agent);
// Codex: the [mcp_servers.mailroom] table.
std::string mcp_toml_table();
// What `mcp show <agent>` prints: the JSON snippet, or the TOML table.
std::string mcp_snippet_text(Agent agent);
// `claude mcp add -s user ...`: Claude Code's user scope is printed, never written.
std::string claude_user_command();

// .mcp.json (Claude Code, project only), .codex/config.toml, .gemini/settings.json: under the
// working directory, or under $HOME with `user`. Errors: usage when HOME is unset for `user`.
Result<std::string> mcp_settings_path(Agent agent, bool user, const util::Environment& env);

struct McpChange {
  std::string path;
  bool changed = false;              // the file was written
  bool created = false;              // there was no file
  std::optional<std::string> backup; // the old content's backup when an existing file changed
};

// Adds the entry. Errors, with nothing written: usage (exit 2) when a JSON file is not valid JSON,
// or the file holds a different mailroom entry (naming `path:line` for TOML, whose other content
// is kept byte for byte); store_error on I/O.
Result<McpChange> install_mcp(Agent agent, const std::string& path, const settingsfile::Surroundings& around);
// Removes exactly what install added (the recorded additions; without a record, an entry that is
// exactly mailroom's), nothing else; a file the install created that is left empty is removed.
Result<McpChange> uninstall_mcp(Agent agent, const std::string& path,
                                const settingsfile::Surroundings& around);

} // namespace mailroom::hooks
