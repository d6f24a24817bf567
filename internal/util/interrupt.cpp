#include "util/interrupt.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <fmt/format.h>

namespace mailroom::util {

namespace {

// A signal handler can reach nothing else: these are the watch's only process-wide state.
volatile std::sig_atomic_t g_received = 0;
volatile std::sig_atomic_t g_wake_fd = -1;
struct sigaction g_previous_int {};
struct sigaction g_previous_term {};

extern "C" void on_interrupt(int signal_number)
{
  const int saved = errno;
  if (g_received == 0) {
    g_received = signal_number;
  }
  if (g_wake_fd >= 0) {
    const char byte = 1;
    (void)!::write(g_wake_fd, &byte, 1);
  }
  errno = saved;
}

} // namespace

Result<std::unique_ptr<InterruptWatch>> InterruptWatch::install()
{
  int fds[2] = {-1, -1};
  if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) {
    return make_error(ErrorCode::store_error,
                      fmt::format("cannot watch for signals: {}", std::strerror(errno)));
  }
  g_received = 0;
  g_wake_fd = fds[1];
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &action, &g_previous_int);
  ::sigaction(SIGTERM, &action, &g_previous_term);
  return std::unique_ptr<InterruptWatch>(new InterruptWatch(fds[0], fds[1]));
}

InterruptWatch::~InterruptWatch()
{
  ::sigaction(SIGINT, &g_previous_int, nullptr);
  ::sigaction(SIGTERM, &g_previous_term, nullptr);
  g_wake_fd = -1;
  ::close(m_read_fd);
  ::close(m_write_fd);
}

int InterruptWatch::received() const
{
  return g_received;
}

int InterruptWatch::wait_for(std::chrono::milliseconds timeout)
{
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + timeout;
  while (g_received == 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now()).count();
    if (left <= 0) {
      break;
    }
    pollfd watched{m_read_fd, POLLIN, 0};
    // poll takes an int of milliseconds: wait in slices of at most a day.
    const int slice = static_cast<int>(std::min<long long>(left, 86'400'000));
    const int ready = ::poll(&watched, 1, slice);
    if (ready < 0 && errno != EINTR) {
      break;
    }
  }
  return g_received;
}

} // namespace mailroom::util
