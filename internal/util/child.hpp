#pragma once

// An asynchronous child process: started from an argv (never a shell) in its own process group,
// fed its stdin and drained of stdout/stderr while the caller decides when to stop waiting.
// run_subprocess (subprocess.hpp) is Child run to its end; `watch` drives one itself, so that it can
// renew a lease and answer signals while a handler runs.

#include <chrono>
#include <memory>

#include <sys/types.h>

#include "base/result.hpp"
#include "util/subprocess.hpp"

namespace mailroom::util {

class Child {
public:
  using Clock = std::chrono::steady_clock;

  // Why pump() returned.
  enum class Event {
    ended,       // the child exited (or was killed) and its pipes are drained or given up on
    deadline,    // `deadline` passed first
    interrupted, // `interrupt_fd` became readable first
  };

  // Starts `options.argv` as run_subprocess does (its own process group, the caller's environment
  // plus extra_env, every descriptor above 2 closed, signals at their defaults). stdin_data is
  // written as the child reads it; stdout past stdout_cap kills the group (over_cap). `timeout`
  // is not used here: the caller passes deadlines to pump().
  // Errors: provider_error naming the program when it cannot be started.
  static Result<Child> spawn(const SubprocessOptions& options);

  Child(Child&&) noexcept;
  Child& operator=(Child&&) noexcept;
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  // A child still running is killed (its whole group) and reaped.
  ~Child();

  // Moves stdin/stdout/stderr and watches for the child's exit until it has ended, `deadline`
  // passes, or `interrupt_fd` (-1: none) is readable (it is not read). Blocks in poll(2); no
  // busy loop. Call again after deadline/interrupted to keep waiting.
  Event pump(Clock::time_point deadline, int interrupt_fd = -1);

  // Sends `signal` to the child's process group (nothing when it has been reaped).
  void signal_group(int signal);
  // SIGKILL to the process group, remembering that the time limit ended it (timed_out).
  void kill_for_timeout();

  // True once the child has exited and been reaped.
  bool ended() const;
  // The process id (also the process group id).
  pid_t pid() const;

  // Kills the group if the child is still running, reaps it, closes the pipes and returns what
  // happened. Call once; afterwards the Child is empty.
  SubprocessResult finish();

  struct State;

private:
  explicit Child(std::unique_ptr<State> state);
  std::unique_ptr<State> m_state;
};

} // namespace mailroom::util
