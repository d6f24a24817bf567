#include "hook_deadline.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>

#include <fmt/format.h>
#include <unistd.h>

#include "mail/duration.hpp"
#include "render/json.hpp"

namespace mailroom::cli {

namespace {

// HookDeadline::Shared::phase
constexpr int k_phase_running = 0;   // firing ends the process with the timeout line
constexpr int k_phase_answering = 1; // the answer is being written: firing does nothing
constexpr int k_phase_answered = 2;  // firing ends the process silently
constexpr int k_phase_fired = 3;

static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free atomic");

void on_hook_deadline(int /*signal*/, siginfo_t* info, void* /*context*/)
{
  if (info == nullptr || info->si_code != SI_TIMER || info->si_value.sival_ptr == nullptr) {
    return; // not our timer
  }
  auto& shared = *static_cast<HookDeadline::Shared*>(info->si_value.sival_ptr);
  int phase = k_phase_running;
  if (shared.phase.compare_exchange_strong(phase, k_phase_fired)) {
    const int saved = errno;
    std::size_t done = 0;
    while (done < shared.line.size()) {
      const ssize_t n = ::write(STDERR_FILENO, shared.line.data() + done, shared.line.size() - done);
      if (n <= 0) {
        break;
      }
      done += static_cast<std::size_t>(n);
    }
    errno = saved;
    ::_exit(0);
  }
  if (phase == k_phase_answered) {
    ::_exit(0);
  }
}

timespec to_timespec(std::chrono::steady_clock::time_point when)
{
  const auto since = when.time_since_epoch();
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(since);
  timespec out{};
  out.tv_sec = static_cast<time_t>(seconds.count());
  out.tv_nsec =
      static_cast<long>(std::chrono::duration_cast<std::chrono::nanoseconds>(since - seconds).count());
  return out;
}

// Blocks SIGALRM for the scope, so the handler never sees the state half changed.
class AlarmBlocked {
public:
  AlarmBlocked()
  {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGALRM);
    pthread_sigmask(SIG_BLOCK, &set, &m_old);
  }
  ~AlarmBlocked() { pthread_sigmask(SIG_SETMASK, &m_old, nullptr); }
  AlarmBlocked(const AlarmBlocked&) = delete;
  AlarmBlocked& operator=(const AlarmBlocked&) = delete;

private:
  sigset_t m_old{};
};

} // namespace

std::string timeout_line(std::chrono::milliseconds budget, bool json)
{
  const std::string message = fmt::format(
      "gave up after the hook's time budget of {} (a locked store, a slow script or an unreachable "
      "server); nothing was shown",
      mail::format_duration(budget.count()));
  if (json) {
    Error error = make_error(ErrorCode::timeout, message,
                             "raise it with check --budget, $MAILROOM_HOOK_BUDGET or [hooks] budget");
    return render::dump_json(render::error_to_json(error));
  }
  return fmt::format("mailroom check: {}\n", message);
}

HookDeadline::HookDeadline(Clock::time_point start, std::chrono::milliseconds budget, bool json)
    : m_start(start), m_budget(budget), m_json(json)
{
}

Result<std::unique_ptr<HookDeadline>> HookDeadline::arm(Clock::time_point start,
                                                        std::chrono::milliseconds budget, bool json)
{
  std::unique_ptr<HookDeadline> deadline(new HookDeadline(start, budget, json));
  deadline->set_line();
  struct sigaction action {};
  action.sa_sigaction = &on_hook_deadline;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  if (::sigaction(SIGALRM, &action, nullptr) != 0) {
    return make_error(ErrorCode::store_error,
                      fmt::format("cannot arm the hook deadline: {}", std::strerror(errno)));
  }
  sigevent event{};
  event.sigev_notify = SIGEV_SIGNAL;
  event.sigev_signo = SIGALRM;
  event.sigev_value.sival_ptr = &deadline->m_shared;
  if (::timer_create(CLOCK_MONOTONIC, &event, &deadline->m_timer) != 0) {
    return make_error(ErrorCode::store_error,
                      fmt::format("cannot arm the hook deadline: {}", std::strerror(errno)));
  }
  deadline->m_created = true;
  TRY(deadline->set_time());
  return deadline;
}

HookDeadline::~HookDeadline()
{
  // Ignoring the signal first discards one already pending, so the handler never runs with this
  // object gone.
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGALRM, &ignore, nullptr);
  if (m_created) {
    ::timer_delete(m_timer);
  }
}

void HookDeadline::set_line()
{
  m_shared.line = timeout_line(m_budget, m_json);
}

Result<void> HookDeadline::set_time()
{
  itimerspec when{};
  when.it_value = to_timespec(m_start + m_budget);
  if (when.it_value.tv_sec == 0 && when.it_value.tv_nsec == 0) {
    when.it_value.tv_nsec = 1; // zero would disarm
  }
  if (::timer_settime(m_timer, TIMER_ABSTIME, &when, nullptr) != 0) {
    return make_error(ErrorCode::store_error,
                      fmt::format("cannot arm the hook deadline: {}", std::strerror(errno)));
  }
  return {};
}

void HookDeadline::rearm(std::chrono::milliseconds budget)
{
  if (budget == m_budget) {
    return;
  }
  const AlarmBlocked blocked;
  m_budget = budget;
  set_line();
  (void)set_time(); // it was set once already; a failure keeps the first deadline
}

bool HookDeadline::begin_answer()
{
  int phase = k_phase_running;
  return m_shared.phase.compare_exchange_strong(phase, k_phase_answering);
}

void HookDeadline::answered()
{
  m_shared.phase.store(k_phase_answered);
  // A deadline that passed while the answer was written fires no more (the timer is one-shot);
  // end now rather than let anything after the answer run past the budget.
  if (Clock::now() >= m_start + m_budget) {
    ::_exit(0);
  }
}

} // namespace mailroom::cli
