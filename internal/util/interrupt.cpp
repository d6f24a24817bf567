#include "util/interrupt.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>

#include <fmt/format.h>
#include <poll.h>
#include <pthread.h>
#include <sys/signalfd.h>
#include <unistd.h>

namespace mailroom::util {

struct InterruptSignals::State {
  int fd = -1;
  sigset_t old_mask{};
  int received = 0;
  struct sigaction old_int {};
  struct sigaction old_term {};
};

namespace {

// A signal whose disposition is SIG_IGN is discarded when it is sent, never pending, so a signalfd
// never sees it: a non-interactive shell starts background jobs with SIGINT ignored. While the
// signal is blocked, SIG_DFL does nothing by itself; it only lets the signal become pending.
void unignore(int signal, struct sigaction& old)
{
  ::sigaction(signal, nullptr, &old);
  if (old.sa_handler == SIG_IGN) {
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    ::sigaction(signal, &dfl, nullptr);
  }
}

} // namespace

InterruptSignals::InterruptSignals(std::unique_ptr<State> state) : m_state(std::move(state)) {}
InterruptSignals::InterruptSignals(InterruptSignals&&) noexcept = default;
InterruptSignals& InterruptSignals::operator=(InterruptSignals&&) noexcept = default;

Result<InterruptSignals> InterruptSignals::install()
{
  auto state = std::make_unique<State>();
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  ::pthread_sigmask(SIG_BLOCK, &set, &state->old_mask);
  unignore(SIGINT, state->old_int);
  unignore(SIGTERM, state->old_term);
  state->fd = ::signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
  if (state->fd < 0) {
    const int error = errno;
    ::sigaction(SIGINT, &state->old_int, nullptr);
    ::sigaction(SIGTERM, &state->old_term, nullptr);
    ::pthread_sigmask(SIG_SETMASK, &state->old_mask, nullptr);
    return make_error(ErrorCode::store_error,
                      fmt::format("cannot watch for signals: {}", std::strerror(error))); // NOLINT
  }
  return InterruptSignals(std::move(state));
}

InterruptSignals::~InterruptSignals()
{
  if (!m_state) {
    return;
  }
  (void)received(); // a signal that came after the decision to end must not kill us on unblock
  ::close(m_state->fd);
  ::sigaction(SIGINT, &m_state->old_int, nullptr);
  ::sigaction(SIGTERM, &m_state->old_term, nullptr);
  ::pthread_sigmask(SIG_SETMASK, &m_state->old_mask, nullptr);
}

int InterruptSignals::fd() const
{
  return m_state ? m_state->fd : -1;
}

int InterruptSignals::received()
{
  if (!m_state) {
    return 0;
  }
  signalfd_siginfo info{};
  while (::read(m_state->fd, &info, sizeof info) == static_cast<ssize_t>(sizeof info)) {
    if (m_state->received == 0) {
      m_state->received = static_cast<int>(info.ssi_signo);
    }
  }
  return m_state->received;
}

bool sleep_until(std::chrono::steady_clock::time_point deadline, int fd)
{
  while (true) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      return true;
    }
    const auto ms = std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count();
    pollfd entry{fd, POLLIN, 0};
    const int ready = ::poll(&entry, fd >= 0 ? 1 : 0, static_cast<int>(std::min<long long>(ms, 3600LL * 1000)));
    if (ready > 0) {
      return false;
    }
  }
}

int exit_status_for_signal(int signal)
{
  return 128 + signal;
}

} // namespace mailroom::util
