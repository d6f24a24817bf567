#pragma once

// Running one external program with an explicit argv (never a shell), bounded in time and output.
// The exec provider, notify and watch use this; util/child.hpp is the
// asynchronous form.

#include <chrono>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "base/result.hpp"

namespace mailroom::util {

struct SubprocessOptions {
  // argv[0] is the program: without '/' it is searched in $PATH, with '/' it is used as is
  // (relative to the working directory), like execvp. Must not be empty.
  std::vector<std::string> argv;
  // Added to (or replacing same-named variables of) the caller's whole environment.
  std::vector<std::pair<std::string, std::string>> extra_env;
  // Written to the child's stdin through a pipe that is then closed; empty means immediate EOF.
  std::string stdin_data;
  std::chrono::milliseconds timeout{30000};
  std::size_t stdout_cap = 16U * 1024U * 1024U; // more than this kills the child (over_cap)
  std::size_t stderr_keep = 64U * 1024U;        // only the last this-many bytes are kept
  // When the child exits, leave what it started in its process group running (a script's
  // `ensure-running` starts the service later commands use). A timeout still kills the group.
  bool keep_group = false;
};

struct SubprocessResult {
  bool exited = false; // ended by exit(); exit_status is valid
  int exit_status = 0;
  int term_signal = 0; // the signal that ended it when !exited
  std::string stdout_text;
  std::string stderr_text; // the tail, at most stderr_keep bytes
  bool timed_out = false;  // the time limit passed and the process group was killed
  bool over_cap = false;   // stdout passed stdout_cap and the process group was killed

  // True when it exited with status 0 within its limits.
  bool success() const { return exited && exit_status == 0 && !timed_out && !over_cap; }
  // How it ended in Go's words: "exit status N" or "signal: killed" (other signals by name).
  std::string describe_status() const;
};

// True when `program` can be started as run_subprocess would start it: a path (with '/') to an
// executable regular file, or a name found as one in the directories of `path_env` ($PATH).
bool can_execute(const std::string& program, const std::string& path_env);

// Runs `options.argv[0]` in its own process group with the caller's environment (plus extra_env)
// and working directory, stdin from `stdin_data`, stdout and stderr captured; every other
// descriptor is closed in the child. On timeout or when stdout passes its cap, the whole group is
// sent SIGKILL and the result says so. When the child exits, whatever is left of its process group
// (background jobs it started) is killed too, unless keep_group; output already in the pipes is
// collected for a short grace period, then the pipes are closed.
// Never raises SIGPIPE in the caller. Changes nothing else in the calling process.
// Errors: provider_error when the program cannot be started (not found, not executable, ...).
Result<SubprocessResult> run_subprocess(const SubprocessOptions& options);

} // namespace mailroom::util
