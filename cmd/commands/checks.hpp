#pragma once

// `hooks status` and `doctor` share one run: the project's checks, each agent's hook checks
// (internal/hooks/status.hpp), each installed MCP entry's checks (internal/hooks/mcp_status.hpp)
// and, in a git worktree that no installed hook or MCP entry reaches, the problem `reach`; printed as one
// line per check or as
// {"schema_version":1,"checks":[{"agent","check","ok","detail"}]}; exit 0 when every check is ok,
// 1 when one is not.

#include <string>

#include "base/exit_code.hpp"
#include "cli/context.hpp"

namespace mailroom::cli {

// `agent` empty: every agent with a mailroom hook installed (`doctor`: the same, and no problem
// when there is none). `user`: the user-level settings files.
Result<ExitCode> run_checks(Context& ctx, const std::string& agent, bool user, bool doctor);

} // namespace mailroom::cli
