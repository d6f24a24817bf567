#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "context.hpp"
#include "hook_guard.hpp"
#include "mail/clock.hpp"
#include "config/discovery.hpp"
#include "output.hpp"

namespace mailroom::cli {

// Parses the command line, runs one command and returns the contract's exit code (0–5).
// The only place that catches exceptions and chooses stdout/stderr.
int run(int argc, char** argv);

// What run() builds from the process; tests pass their own.
struct AppDeps {
  const util::Environment& env;
  Output& out;
  Input& in;
  const mail::Clock& clock;
  // Opens the provider for `settings` acting as `identity`; called at most once, lazily.
  std::function<Result<std::unique_ptr<mail::Provider>>(const mail::ProviderSettings& settings,
                                                                const config::Identity& identity)>
    open_provider;
  // When set, used instead of open_provider (not owned), so tests can keep state across runs.
  mail::Provider* provider = nullptr;
  // A hook's time budget, armed by run() at process start for a hook invocation (not owned).
  HookDeadline* deadline = nullptr;
  // Set by run_args for a hook invocation: the output that holds the answer back (not owned).
  HookOutput* hook_output = nullptr;
};

// run() on `args` (without the program name) with injected collaborators. Returns the exit code.
int run_args(const std::vector<std::string>& args, const AppDeps& deps);

} // namespace mailroom::cli
