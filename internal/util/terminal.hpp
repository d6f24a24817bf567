#pragma once

// Programs the person at the terminal chose ($EDITOR, $PAGER), run attached to that terminal.
// Always an argv (split here without a shell: nothing is expanded), never `sh -c`.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.hpp"

namespace mailroom::util {

using EnvPairs = std::vector<std::pair<std::string, std::string>>;

// Splits a command line taken from a variable such as $EDITOR into words: runs of blanks separate
// words; single quotes keep everything literally; double quotes group and let a backslash escape
// `"` and `\`; outside quotes a backslash escapes the next character. Nothing is expanded.
// Errors: usage on an unclosed quote or a trailing backslash.
Result<std::vector<std::string>> split_command_line(std::string_view line);

// Runs `argv` (searched in $PATH when argv[0] has no '/') with this process's stdin, stdout and
// stderr, plus `extra_env`, and waits for it. SIGINT and SIGQUIT are ignored here meanwhile (the
// child gets them from the terminal). Returns its exit status, or 128 + the signal that ended it.
// Errors: provider_error when it cannot be started.
Result<int> run_attached(const std::vector<std::string>& argv, const EnvPairs& extra_env = {});

// A child that reads what this process writes (a pager): its stdin is a pipe, its stdout and
// stderr are this process's.
class PipedChild {
public:
  // Starts `argv` as run_attached does, with its stdin on a new pipe. Errors: provider_error.
  static Result<PipedChild> start(const std::vector<std::string>& argv, const EnvPairs& extra_env = {});

  PipedChild(PipedChild&& other) noexcept;
  PipedChild& operator=(PipedChild&& other) noexcept;
  PipedChild(const PipedChild&) = delete;
  PipedChild& operator=(const PipedChild&) = delete;
  // finish()
  ~PipedChild();

  // The write end of the child's stdin.
  int fd() const { return m_fd; }
  // Closes the pipe and waits for the child to exit (ignoring SIGINT meanwhile, so a Ctrl-C in a
  // pager does not leave it running without us). Safe to call twice.
  void finish();

private:
  PipedChild(int fd, int pid) : m_fd(fd), m_pid(pid) {}
  int m_fd = -1;
  int m_pid = -1;
};

} // namespace mailroom::util
