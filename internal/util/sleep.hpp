#pragma once

// Waiting without spinning for the commands that block (wait, watch, send --wait-reply), beside
// InterruptWatch (util/interrupt.hpp): they poll its fd() with their own descriptors.

#include <chrono>

namespace mailroom::util {

// Sleeps until `deadline` or until `fd` (-1: none) is readable, without spinning. True when the
// deadline came first, false when `fd` did.
bool sleep_until(std::chrono::steady_clock::time_point deadline, int fd);

// The contract's exit status for a command ended by `signal`: 130 for SIGINT, 143 for SIGTERM.
int exit_status_for_signal(int signal);

} // namespace mailroom::util
