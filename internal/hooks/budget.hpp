#pragma once

// The hook's hard time budget (contract "What reaches an agent"; docs/coding-agents.md): which
// setting wins, and the timeout `hooks install` gives the agent above it.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace mailroom::hooks {

inline constexpr std::string_view k_budget_env = "MAILROOM_HOOK_BUDGET";

// The budget: `flag` (check --budget), else `env` ($MAILROOM_HOOK_BUDGET), else `configured`
// ([hooks] budget, whose default is mail::k_default_hook_budget). Each is a duration ("500ms",
// "2s", a bare number of seconds) of at least 1 ms and at most mail::k_max_hook_budget.
// Errors: usage naming the source of a bad value.
Result<std::chrono::milliseconds> resolve_budget(const std::optional<std::string>& flag,
                                                 const std::optional<std::string>& env,
                                                 std::chrono::milliseconds configured);

// The budget before the configuration is read: --budget, else $MAILROOM_HOOK_BUDGET, else the
// default; a bad value counts as the default here (the command reports it once it runs).
std::chrono::milliseconds early_budget(const std::optional<std::string>& flag,
                                       const std::optional<std::string>& env);

// The timeout, in whole seconds, that `hooks install` writes for a hook with `budget`: the budget
// rounded up plus a margin for starting the process on a loaded machine, so the agent never kills
// a hook that is still inside its budget.
int agent_timeout_seconds(std::chrono::milliseconds budget);

} // namespace mailroom::hooks
