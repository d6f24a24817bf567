#pragma once

// A process started to outlive its caller (the hook's refresh of an exec script's answer,
// docs/exec-protocol.md "The hook through a slow script"): an argv (never a shell), a session of
// its own, stdin and stderr on /dev/null, and stdout a pipe whose read end the caller keeps, so
// that the caller can wait a while for it to end and then leave it running. Never killed here.

#include <chrono>
#include <string>
#include <vector>

#include <sys/types.h>

#include "base/result.hpp"

namespace mailroom::util {

class Detached {
public:
  using Clock = std::chrono::steady_clock;

  // Starts `argv` (argv[0] searched in $PATH as execvp does when it has no '/') with the caller's
  // environment and working directory. Errors: provider_error when it cannot be started.
  static Result<Detached> spawn(const std::vector<std::string>& argv);

  Detached(Detached&& other) noexcept;
  Detached& operator=(Detached&&) = delete;
  Detached(const Detached&) = delete;
  Detached& operator=(const Detached&) = delete;
  // Closes the caller's end of the pipe; the process runs on (reaped by init once its caller is
  // gone, or here when it has already ended).
  ~Detached();

  // Waits until the process has ended (its stdout reached end of file) or `deadline` passes;
  // true when it ended. What it writes on stdout is read and dropped.
  bool wait_until(Clock::time_point deadline);

  pid_t pid() const { return m_pid; }

private:
  Detached(pid_t pid, int fd) : m_pid(pid), m_fd(fd) {}
  pid_t m_pid = -1;
  int m_fd = -1;
  bool m_ended = false;
};

// The path of the running program (/proc/self/exe), for starting another run of it; empty when it
// cannot be read.
std::string self_executable();

} // namespace mailroom::util
