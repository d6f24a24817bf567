#pragma once

// Running an argv wake, and starting wake work away from the caller (contract, decisions after
// review, "Timing"): a wake child gets /dev/null for stdin, stdout and stderr and a session of its
// own, so the sender's terminal never sees it and the sender never waits for it.

#include <chrono>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <sys/types.h>

#include "base/result.hpp"
#include "wake/outcome.hpp"

namespace mailroom::wake {

// A wake command's time limit.
inline constexpr std::chrono::milliseconds k_argv_limit{10000};

// Runs `argv` (already expanded: expand_argv) detached from the caller's terminal: stdin, stdout
// and stderr on /dev/null, its own session, every other descriptor closed, `extra_env` added to
// the caller's environment. Waits for it at most `limit`; past it, its process group is killed.
// sent when it exited 0; failed otherwise, the reason naming "exit status N", "signal: NAME",
// "timed out after 10s (killed)" or why it could not be started.
Report run_argv(const std::vector<std::string>& argv, std::chrono::milliseconds limit = k_argv_limit,
                const std::vector<std::pair<std::string, std::string>>& extra_env = {});

// Starts wake work (e.g. this binary's own hidden subcommand that runs pending wakes:
// util::self_executable()) so that the caller never waits for it: stdin, stdout and stderr on
// /dev/null, a session of its own, every other descriptor closed; the caller continues at once.
// A process that ends before its caller is reaped by launch() and reap() and by the destructor;
// one still running when the caller exits is inherited and reaped by init.
class Launcher {
public:
  Launcher() = default;
  Launcher(const Launcher&) = delete;
  Launcher& operator=(const Launcher&) = delete;
  ~Launcher();

  // Starts `argv` with `extra_env` added to the caller's environment; returns its pid.
  // Errors: provider_error when it cannot be started.
  Result<pid_t> launch(const std::vector<std::string>& argv,
                       const std::vector<std::pair<std::string, std::string>>& extra_env = {});
  // Reaps the started processes that have ended; never waits. Returns how many still run.
  std::size_t reap();

private:
  std::vector<pid_t> m_running;
};

} // namespace mailroom::wake
