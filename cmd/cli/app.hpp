#pragma once

#include <string>
#include <vector>

#include "context.hpp"
#include "hook_guard.hpp"

namespace mailroom::cli {

// Parses the command line, runs one command and returns the contract's exit code (0–5).
// The only place that catches exceptions and chooses stdout/stderr.
int run(int argc, char** argv);

// run() on `args` (without the program name) with injected collaborators. Returns the exit code.
int run_args(const std::vector<std::string>& args, const AppDeps& deps);

} // namespace mailroom::cli
