#pragma once

// Waiting inside a tool call: the `timeout` argument (default 30 s, at most 55 s, so the answer
// comes inside clients' 60-second limits) and a file descriptor that becomes readable when the
// call is cancelled, for mail::wait_for's interrupt.

#include <chrono>
#include <optional>
#include <stop_token>

#include "base/result.hpp"
#include "mcp/tools.hpp"

namespace mailroom::mcp {

// The deadline from call.args["timeout"]. Errors: usage (not a duration, or over 55 s).
Result<std::chrono::steady_clock::time_point> wait_deadline(const ToolCall& call);

// A pipe whose read end becomes readable when `stop` is requested.
class CancelPipe {
public:
  static Result<std::unique_ptr<CancelPipe>> open(std::stop_token stop);
  ~CancelPipe();
  CancelPipe(const CancelPipe&) = delete;
  CancelPipe& operator=(const CancelPipe&) = delete;
  int fd() const { return m_read; }

private:
  CancelPipe(int read_fd, int write_fd) : m_read(read_fd), m_write(write_fd) {}
  void arm(std::stop_token stop);
  int m_read;
  int m_write;
  std::optional<std::stop_callback<std::function<void()>>> m_callback;
};

} // namespace mailroom::mcp
