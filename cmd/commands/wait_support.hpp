#pragma once

// Pieces `wait`, `send --wait-reply` and `watch` share on the command line: durations and interrupt
// exit codes. The wait itself is ops/wait.hpp.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "base/exit_code.hpp"
#include "cli/context.hpp"

namespace mailroom::cli {

// A deadline `flag` (a duration, "--timeout") from now; nullopt when no flag was given.
// Errors: usage naming a bad duration.
Result<std::optional<std::chrono::steady_clock::time_point>>
deadline_from(const std::optional<std::string>& flag, std::string_view what);

// The type names given with --type, each resolved (ops::resolve_types).
Result<std::vector<std::string>> resolve_types(const Context& ctx, const std::vector<std::string>& types);

// The exit code of a command ended by `signal` (SIGINT 130, SIGTERM 143).
ExitCode interrupted_exit(int signal);

} // namespace mailroom::cli
