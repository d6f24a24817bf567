#pragma once

// The hook's hard time budget (contract "What reaches an agent"; issue #29 item 3): a POSIX timer
// armed when the process starts, before any word is parsed, configuration read or store opened.
// When it fires before the answer is being written, the process writes one fixed stderr line and
// ends at once with exit 0 (_exit: no destructor, no buffered stdio — nothing partial reaches
// stdout, because a hook's stdout is only written in one piece by HookOutput::answer). A lock, a
// slow script, a slow disk or an unreachable server therefore costs the budget once, whatever
// waits inside (libpq's connect timeout, which it rounds up to 2 s, included). Child processes
// are not killed: an exec script's `ensure-running` keeps running, detached in its own process
// group, and finishes its work for the next prompt.
//
// Why a signal rather than a thread: timer_create + one sigaction cost two system calls on every
// prompt, a thread tens of microseconds. The handler only does async-signal-safe things (a
// lock-free compare-exchange, write(2), _exit). The timer passes the state to the handler in its
// si_value, so no global is involved; a SIGALRM from anything else (kill) is ignored.

#include <atomic>
#include <chrono>
#include <ctime>
#include <memory>
#include <string>

#include "base/result.hpp"

namespace mailroom::cli {

class HookDeadline {
public:
  using Clock = std::chrono::steady_clock;

  // Arms a timer firing `budget` after `start` (CLOCK_MONOTONIC, the steady clock's). `line` is
  // what reaches stderr when it fires (built from budget with timeout_line()). Errors:
  // store_error when the timer cannot be created (the hook then runs without a deadline).
  static Result<std::unique_ptr<HookDeadline>> arm(Clock::time_point start, std::chrono::milliseconds budget,
                                                   bool json);
  // Disarms the timer; a signal still pending is discarded.
  ~HookDeadline();
  HookDeadline(const HookDeadline&) = delete;
  HookDeadline& operator=(const HookDeadline&) = delete;

  // Moves the deadline to `budget` after the same start (the configured `[hooks] budget`, known
  // only once the configuration is read). A deadline already past fires at once.
  void rearm(std::chrono::milliseconds budget);

  // The answer is about to be written: false when the deadline has already fired (the process is
  // ending), true otherwise; from now on the deadline no longer interrupts.
  bool begin_answer();
  // The answer is written: from now on the deadline ends the process silently (nothing the hook
  // still does after its answer, such as its presence write, can make the agent wait).
  void answered();

  std::chrono::milliseconds budget() const { return m_budget; }
  // When the deadline fires.
  Clock::time_point end() const { return m_start + m_budget; }

  // The state the signal handler reads: public only so the handler (a free function) can name it.
  struct Shared {
    std::atomic<int> phase{0};
    std::string line;
  };

private:
  HookDeadline(Clock::time_point start, std::chrono::milliseconds budget, bool json);
  void set_line();
  Result<void> set_time();

  Clock::time_point m_start;
  std::chrono::milliseconds m_budget;
  bool m_json;
  timer_t m_timer{};
  bool m_created = false;
  Shared m_shared;
};

// The stderr line of a budget that ran out, as text or as the JSON error document.
std::string timeout_line(std::chrono::milliseconds budget, bool json);

} // namespace mailroom::cli
