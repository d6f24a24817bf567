#pragma once

// SIGINT and SIGTERM as something a loop can wait on (sweep --every): while an InterruptWatch is
// alive, those signals no longer end the process; they are recorded and wake wait_for(), so the
// loop can finish what it is doing and exit with 130 or 143 itself.

#include <chrono>
#include <memory>

#include "base/result.hpp"

namespace mailroom::util {

class InterruptWatch {
public:
  // Installs the handlers (the previous ones come back when the watch is destroyed). One watch
  // at a time per process. Errors: store_error when the self-pipe cannot be made.
  static Result<std::unique_ptr<InterruptWatch>> install();

  InterruptWatch(const InterruptWatch&) = delete;
  InterruptWatch& operator=(const InterruptWatch&) = delete;
  ~InterruptWatch();

  // The first signal received (SIGINT or SIGTERM), or 0.
  int received() const;
  // Waits until a signal arrives or `timeout` passes; returns received().
  int wait_for(std::chrono::milliseconds timeout);
  // A descriptor that is readable once a signal has arrived (for waits on several sources).
  int fd() const { return m_read_fd; }

private:
  InterruptWatch(int read_fd, int write_fd) : m_read_fd(read_fd), m_write_fd(write_fd) {}
  int m_read_fd;
  int m_write_fd;
};

} // namespace mailroom::util
