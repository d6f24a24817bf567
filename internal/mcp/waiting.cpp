#include "mcp/waiting.hpp"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include "mail/duration.hpp"
#include "mcp/tool_support.hpp"

namespace mailroom::mcp {

Result<std::chrono::steady_clock::time_point> wait_deadline(const ToolCall& call)
{
  mail::Millis ms = k_default_wait_ms;
  if (const auto given = arg_string(call.args, "timeout")) {
    TRY_ASSIGN(ms, mail::parse_duration(*given, "timeout"));
    if (ms > k_max_wait_ms) {
      return usage(fmt::format("timeout {} is over the limit of 55s", *given),
                   "wait again after the answer: clients give a tool call 60 seconds");
    }
  }
  return std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
}

Result<std::unique_ptr<CancelPipe>> CancelPipe::open(std::stop_token stop)
{
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) {
    return make_error(ErrorCode::store_error, fmt::format("cannot make a pipe: {}", std::strerror(errno)));
  }
  std::unique_ptr<CancelPipe> pipe(new CancelPipe(fds[0], fds[1]));
  pipe->arm(std::move(stop));
  return pipe;
}

void CancelPipe::arm(std::stop_token stop)
{
  m_callback.emplace(std::move(stop), std::function<void()>([fd = m_write] {
                       const char byte = 1;
                       (void)!::write(fd, &byte, 1);
                     }));
}

CancelPipe::~CancelPipe()
{
  m_callback.reset();
  ::close(m_read);
  ::close(m_write);
}

} // namespace mailroom::mcp
