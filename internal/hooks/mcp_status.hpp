#pragma once

// What `hooks status` and `doctor` check of each installed MCP server entry, as they check a hook
// (contract "MCP, round 2", "Round 4: decisions after review", Identity): the file parses and
// holds mailroom's entry, its command resolves to this binary, and the identity the server will
// have once the agent has expanded its arguments (hooks/mcp_settings.hpp, expand_args) in this
// environment. Reads files only; opens no store.

#include <string>
#include <vector>

#include "hooks/agent.hpp"
#include "hooks/settings.hpp"
#include "hooks/status.hpp"
#include "util/environment.hpp"

namespace mailroom::hooks {

// The file the agent reads its mailroom MCP entry from: mcp_settings_path's, except Claude Code's
// user scope, which is $HOME/.claude.json (where `claude mcp add -s user` writes). Empty when the
// user scope is asked for without HOME.
std::string mcp_entry_file(Agent agent, Scope scope, const util::Environment& env);

// Whether that file holds a mailroom MCP entry (or is there but cannot be read: that is reported).
bool has_mcp_installed(Agent agent, Scope scope, const util::Environment& env);

// The checks "mcp_entry", "mcp_command" and "mcp_identity" of the agent's entry.
std::vector<Check> mcp_checks(Agent agent, Scope scope, const StatusInputs& inputs);

} // namespace mailroom::hooks
