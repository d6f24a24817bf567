#pragma once

// SIGINT and SIGTERM as a readable descriptor, for the commands that block (wait, watch,
// send --wait-reply). The signals are blocked and read from a signalfd, so no handler runs and no
// global flag exists: every blocking call in those commands polls this descriptor beside its own
// (mail::ChangeSignal::wait, util::Child::pump) and returns when it is readable. A signal that
// arrives during a store call is seen when that call returns. Children start with every signal
// unblocked (util/child.hpp), so handlers are not affected.

#include <chrono>
#include <memory>

#include "base/result.hpp"

namespace mailroom::util {

class InterruptSignals {
public:
  // Blocks SIGINT and SIGTERM for the calling thread and opens a signalfd for them; an ignored one
  // (a background job of a script) is set to its default action meanwhile, so that it is seen.
  // Errors: store_error when the descriptor cannot be made (the process's descriptor limit).
  static Result<InterruptSignals> install();

  InterruptSignals(InterruptSignals&&) noexcept;
  InterruptSignals& operator=(InterruptSignals&&) noexcept;
  InterruptSignals(const InterruptSignals&) = delete;
  InterruptSignals& operator=(const InterruptSignals&) = delete;
  // Consumes signals still pending (the command is ending anyway) and restores the old mask and
  // dispositions.
  ~InterruptSignals();

  // The descriptor to poll: readable once SIGINT or SIGTERM is pending.
  int fd() const;

  // SIGINT or SIGTERM once one has arrived (the first one is remembered), else 0. Never blocks.
  int received();

  struct State;

private:
  explicit InterruptSignals(std::unique_ptr<State> state);
  std::unique_ptr<State> m_state;
};

// Sleeps until `deadline` or until `fd` (-1: none) is readable, without spinning. True when the
// deadline came first, false when `fd` did.
bool sleep_until(std::chrono::steady_clock::time_point deadline, int fd);

// The contract's exit status for a command ended by `signal`: 130 for SIGINT, 143 for SIGTERM.
int exit_status_for_signal(int signal);

} // namespace mailroom::util
