#pragma once

// Waiting without spinning for the commands that block (wait, watch, send --wait-reply), beside
// InterruptWatch (util/interrupt.hpp): they poll its fd() with their own descriptors.

#include <chrono>

namespace mailroom::util {

// Sleeps until `deadline` or until `fd` (-1: none) is readable, without spinning. True when the
// deadline came first, false when `fd` did.
bool sleep_until(std::chrono::steady_clock::time_point deadline, int fd);

// A pause that tests can replace: backoff goes through one, so a test decides how long it really
// takes (and sees how long it was asked to be).
class Pause {
public:
  virtual ~Pause() = default;
  // Sleeps for `length` or until `fd` (-1: none) is readable: true when the time ran out, false
  // when `fd` did.
  virtual bool sleep_for(std::chrono::milliseconds length, int fd) = 0;
};

// The real one: sleep_until on the steady clock.
class RealPause final : public Pause {
public:
  bool sleep_for(std::chrono::milliseconds length, int fd) override
  {
    return sleep_until(std::chrono::steady_clock::now() + length, fd);
  }
};

// The contract's exit status for a command ended by `signal`: 130 for SIGINT, 143 for SIGTERM.
int exit_status_for_signal(int signal);

} // namespace mailroom::util
