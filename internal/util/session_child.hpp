#pragma once

// A child in a session of its own with stdin, stdout and stderr on /dev/null: the form of a wake
// (internal/wake/run.hpp), which must never touch the caller's terminal or delay it. An argv, never
// a shell; every other descriptor closed; signals at their defaults. util/detached.hpp is the form
// whose caller reads the child's stdout.

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include <sys/types.h>

#include "base/result.hpp"
#include "util/subprocess.hpp"

namespace mailroom::util {

// Starts `argv` (argv[0] searched in $PATH when it has no '/') in a new session (so its process
// group id is its pid) with the caller's environment plus `extra_env` and working directory.
// Errors: provider_error naming the program when it cannot be started.
Result<pid_t> spawn_in_session(const std::vector<std::string>& argv,
                               const std::vector<std::pair<std::string, std::string>>& extra_env = {});

// Waits, without spinning, for `pid` (started by spawn_in_session) to end, and reaps it. Past
// `deadline` its whole process group is sent SIGKILL and reaped, and the result says timed_out.
// Only exited, exit_status, term_signal and timed_out are set.
SubprocessResult wait_in_session(pid_t pid, std::chrono::steady_clock::time_point deadline);

// Reaps `pid` when it has ended; never waits. True when it has been reaped (or is not our child).
bool reap_if_ended(pid_t pid);

} // namespace mailroom::util
