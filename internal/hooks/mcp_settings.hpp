#pragma once

// The MCP server entry of a coding agent (`mailroom mcp show|install|uninstall`): what each
// agent's configuration holds for `mailroom mcp`, and adding or removing exactly that entry
// (contract "MCP server", "Install"; "Round 4: decisions after review", Identity). Each entry is
// written in the form its agent expands, so that it starts in every worktree, including one whose
// identity comes from `.mailroom-identity`:
//  Claude Code (.mcp.json) expands `${VAR}` and `${VAR:-default}` in args: `--as
//    ${MAILROOM_IDENTITY:-}`, which is an empty --as (no --as) when the variable is unset;
//  Gemini CLI expands `$VAR` and `${VAR}` but leaves an unset one as its literal text and has no
//    default form: no --as; the server inherits Gemini's environment, so mailroom's own order
//    ($MAILROOM_IDENTITY, then .mailroom-identity) decides;
//  Codex expands nothing in args and passes the variables its `env_vars` names: no --as,
//    MAILROOM_IDENTITY forwarded.
// Claude Code's user scope is a `claude mcp add` line without --as. Files are changed by the settings-file
// module, as hooks install changes them: merged, the old content backed up under
// $XDG_STATE_HOME/mailroom/backups/ (never beside the file), an atomic rename, nothing written when nothing
// changes, and what was added recorded under the owner "mcp" so that uninstall removes exactly that.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "hooks/agent.hpp"
#include "settingsfile/state.hpp"
#include "util/environment.hpp"

namespace mailroom::hooks {

// The variable an entry passes the identity in.
inline constexpr std::string_view k_mcp_identity_variable = "MAILROOM_IDENTITY";

// The arguments of the server for `agent` (see above), with "--digest" last when `digest`:
// Claude Code ["mcp", "--as", "${MAILROOM_IDENTITY:-}"], Gemini CLI and Codex ["mcp"].
nlohmann::ordered_json mcp_args(Agent agent, bool digest = false);

// Claude Code and Gemini CLI: {"mcpServers": {"mailroom": {"command": "mailroom", "args": [...]}}}.
nlohmann::ordered_json mcp_json_snippet(Agent agent, bool digest = false);
// Codex: the [mcp_servers.mailroom] table.
std::string mcp_toml_table(bool digest = false);
// What `mcp show <agent>` prints: the JSON snippet, or the TOML table.
std::string mcp_snippet_text(Agent agent, bool digest = false);
// `claude mcp add -s user ...`: Claude Code's user scope is printed, never written.
std::string claude_user_command(bool digest = false);

// `args` as `agent` expands them before starting the server, in `env` (Claude Code: `${VAR}` and
// `${VAR:-default}`; Gemini CLI: `$VAR` and `${VAR}`; an unset variable without a default stays
// as written; Codex: nothing).
std::vector<std::string> expand_args(Agent agent, const std::vector<std::string>& args,
                                     const util::Environment& env);

// .mcp.json (Claude Code, project only), .codex/config.toml, .gemini/settings.json: at the
// project directory (the top of the git worktree holding the cwd, else the cwd: where hooks
// install writes), or under $HOME with `user`. Errors: usage when HOME is unset for `user`.
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
Result<McpChange> install_mcp(Agent agent, const std::string& path, const settingsfile::Surroundings& around,
                              bool digest = false);
// Removes exactly what install added (the recorded additions; without a record, an entry that is
// exactly mailroom's, with or without --digest), nothing else; a file the install created that is left empty
// is removed.
Result<McpChange> uninstall_mcp(Agent agent, const std::string& path,
                                const settingsfile::Surroundings& around);

} // namespace mailroom::hooks
