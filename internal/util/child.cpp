#include "util/child.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <csignal>
#include <string_view>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "util/environment.hpp"
#include "util/spawn_parts.hpp"

namespace mailroom::util {

namespace {

using spawn::errno_text;
using spawn::Fd;
using spawn::make_pipe;
using spawn::SigpipeGuard;
using spawn::SpawnSetup;
using spawn::to_pointers;

// After the child exits, its background children may still hold our pipes; Go waits a little
// (WaitDelay) before giving up on them, and so do we.
constexpr std::chrono::milliseconds k_pipe_grace{200};
// Without a pidfd (kernels before 5.3) the exit is looked for at this interval while pipes stay
// open; once the pipes are closed, sooner (backing off from 1 ms), as the child is then exiting.
constexpr std::chrono::milliseconds k_tick{20};
constexpr std::chrono::milliseconds k_first_idle_tick{1};
constexpr std::size_t k_read_chunk = 64U * 1024U;

void record_status(SubprocessResult& result, int status)
{
  if (WIFEXITED(status)) {
    result.exited = true;
    result.exit_status = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.exited = false;
    result.term_signal = WTERMSIG(status);
  }
}

// Reads what is available from `fd` into `sink`; false at EOF or on a hard error.
bool drain(int fd, std::string& sink)
{
  // Not cleared: read(2) fills what is used, and clearing 64 KiB per call was a fifth of an exec
  // command's instructions.
  std::array<char, k_read_chunk> buffer; // NOLINT(cppcoreguidelines-pro-type-member-init)
  const ssize_t n = ::read(fd, buffer.data(), buffer.size());
  if (n > 0) {
    sink.append(buffer.data(), static_cast<std::size_t>(n));
    return true;
  }
  return n < 0 && (errno == EINTR || errno == EAGAIN);
}

// Milliseconds from now to `until` for poll(2): 0 when past, capped far below INT_MAX.
int poll_ms(Child::Clock::duration left)
{
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(left).count();
  return static_cast<int>(std::clamp<long long>(ms, 0, 24LL * 3600 * 1000));
}

} // namespace

struct Child::State {
  pid_t pid = -1;
  Fd pidfd; // readable when the child exits; absent on kernels without pidfd_open
  Fd stdin_fd;
  Fd stdout_fd;
  Fd stderr_fd;
  std::string stdin_data;
  std::size_t stdin_written = 0;
  std::size_t stdout_cap = 0;
  std::size_t stderr_keep = 0;
  SubprocessResult result;
  bool reaped = false;
  bool keep_group = false; // SubprocessOptions::keep_group
  Clock::time_point exited_at{};
  std::chrono::milliseconds idle_tick = k_first_idle_tick;

  // Once the child has exited, the rest of its process group (a script's background jobs) is
  // killed (unless keep_group) before the child is reaped: while the exited child is a zombie its
  // pid, and so the group id, cannot be reused by an unrelated process.
  void try_reap()
  {
    if (reaped) {
      return;
    }
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0 ||
        info.si_pid != pid) {
      return;
    }
    if (!keep_group) {
      ::kill(-pid, SIGKILL);
    }
    reap_blocking();
  }

  void reap_blocking()
  {
    if (reaped) {
      return;
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    record_status(result, status);
    reaped = true;
    exited_at = Clock::now();
    pidfd.reset();
  }

  void kill_group()
  {
    if (!reaped) {
      ::kill(-pid, SIGKILL);
    }
  }

  void write_stdin(short revents)
  {
    const ssize_t n =
        ::write(stdin_fd.get(), stdin_data.data() + stdin_written, stdin_data.size() - stdin_written);
    if (n > 0) {
      stdin_written += static_cast<std::size_t>(n);
    }
    // EPIPE/POLLERR: the child closed its stdin without reading it all, which is its right.
    if (stdin_written == stdin_data.size() || (n < 0 && errno != EAGAIN && errno != EINTR) ||
        (revents & (POLLERR | POLLHUP)) != 0) {
      stdin_fd.reset();
    }
  }

  void read_stdout()
  {
    if (!drain(stdout_fd.get(), result.stdout_text)) {
      stdout_fd.reset();
    }
    if (result.stdout_text.size() > stdout_cap) {
      result.over_cap = true;
      kill_group();
      stdout_fd.reset();
      stderr_fd.reset();
    }
  }

  void read_stderr()
  {
    if (!drain(stderr_fd.get(), result.stderr_text)) {
      stderr_fd.reset();
    }
    if (result.stderr_text.size() > 2 * stderr_keep) {
      result.stderr_text.erase(0, result.stderr_text.size() - stderr_keep);
    }
  }
};

Child::Child(std::unique_ptr<State> state) : m_state(std::move(state)) {}
Child::Child(Child&&) noexcept = default;
Child& Child::operator=(Child&&) noexcept = default;

Child::~Child()
{
  if (m_state) {
    m_state->kill_group();
    m_state->reap_blocking();
  }
}

Result<Child> Child::spawn(const SubprocessOptions& options)
{
  if (options.argv.empty() || options.argv[0].empty()) {
    return make_error(ErrorCode::provider_error, "no program to run");
  }
  const std::string& program = options.argv[0];
  auto spawn_error = [&](int error) {
    return make_error(ErrorCode::provider_error,
                      fmt::format("cannot run \"{}\": {}", program, errno_text(error)));
  };
  auto state = std::make_unique<State>();
  Fd child_in;
  Fd child_out;
  Fd child_err;
  if (!make_pipe(child_in, state->stdin_fd) || !make_pipe(state->stdout_fd, child_out) ||
      !make_pipe(state->stderr_fd, child_err)) {
    return spawn_error(errno);
  }
  SpawnSetup setup;
  if (const int rc = setup.configure(child_in.get(), child_out.get(), child_err.get()); rc != 0) {
    return spawn_error(rc);
  }
  std::vector<std::string> argv_strings = options.argv;
  std::vector<char*> argv = to_pointers(argv_strings);
  std::vector<std::string> env_strings = build_environment(options.extra_env);
  std::vector<char*> envp = to_pointers(env_strings);
  if (const int rc = ::posix_spawnp(&state->pid, program.c_str(), setup.actions(), setup.attr(), argv.data(),
                                    envp.data());
      rc != 0) {
    return spawn_error(rc);
  }
  // pidfd_open(2) through syscall(2): glibc 2.36's <sys/pidfd.h> lacks C linkage for C++.
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, state->pid, 0));
  if (pidfd >= 0) {
    ::fcntl(pidfd, F_SETFD, FD_CLOEXEC);
    state->pidfd.take(pidfd);
  }
  state->stdin_data = options.stdin_data;
  state->stdout_cap = options.stdout_cap;
  state->stderr_keep = options.stderr_keep;
  state->keep_group = options.keep_group;
  if (state->stdin_data.empty()) {
    state->stdin_fd.reset();
  } else {
    ::fcntl(state->stdin_fd.get(), F_SETFL, ::fcntl(state->stdin_fd.get(), F_GETFL) | O_NONBLOCK);
  }
  return Child(std::move(state));
}

Child::Event Child::pump(Clock::time_point deadline, int interrupt_fd)
{
  State& s = *m_state;
  SigpipeGuard sigpipe_guard;
  while (true) {
    s.try_reap();
    const auto now = Clock::now();
    const bool pipes_open = s.stdout_fd.open() || s.stderr_fd.open();
    if (s.reaped && (!pipes_open || now - s.exited_at >= k_pipe_grace)) {
      s.stdin_fd.reset();
      s.stdout_fd.reset();
      s.stderr_fd.reset();
      return Event::ended;
    }
    if (now >= deadline) {
      return Event::deadline;
    }

    std::array<pollfd, 5> fds{};
    nfds_t count = 0;
    auto watch = [&](int fd, short events) {
      if (fd >= 0) {
        fds[count++] = pollfd{fd, events, 0};
      }
    };
    watch(s.stdin_fd.get(), POLLOUT);
    watch(s.stdout_fd.get(), POLLIN);
    watch(s.stderr_fd.get(), POLLIN);
    const nfds_t pipes = count;
    watch(s.reaped ? -1 : s.pidfd.get(), POLLIN);
    watch(interrupt_fd, POLLIN);

    Clock::duration wait_for = deadline - now;
    if (s.reaped) {
      wait_for = std::min<Clock::duration>(wait_for, k_pipe_grace - (now - s.exited_at));
    } else if (!s.pidfd.open()) {
      if (pipes == 0) {
        wait_for = std::min<Clock::duration>(wait_for, s.idle_tick);
        s.idle_tick = std::min(s.idle_tick * 2, k_tick);
      } else {
        wait_for = std::min<Clock::duration>(wait_for, k_tick);
      }
    }
    const int ready = ::poll(fds.data(), count, poll_ms(wait_for));
    if (ready <= 0) {
      continue; // a tick, the deadline or EINTR: look again
    }
    for (nfds_t i = 0; i < count; ++i) {
      const short revents = fds[i].revents;
      if (revents == 0) {
        continue;
      }
      const int fd = fds[i].fd;
      if (fd == interrupt_fd) {
        return Event::interrupted;
      }
      if (fd == s.stdin_fd.get()) {
        s.write_stdin(revents);
      } else if (fd == s.stdout_fd.get()) {
        s.read_stdout();
      } else if (fd == s.stderr_fd.get()) {
        s.read_stderr();
      } // the pidfd: try_reap at the top of the loop
    }
  }
}

void Child::signal_group(int signal)
{
  if (m_state && !m_state->reaped) {
    ::kill(-m_state->pid, signal);
  }
}

void Child::kill_for_timeout()
{
  if (m_state && !m_state->reaped) {
    m_state->result.timed_out = true;
    m_state->kill_group();
  }
}

bool Child::ended() const
{
  return !m_state || m_state->reaped;
}

pid_t Child::pid() const
{
  return m_state ? m_state->pid : -1;
}

SubprocessResult Child::finish()
{
  State& s = *m_state;
  s.kill_group();
  s.stdin_fd.reset();
  s.stdout_fd.reset();
  s.stderr_fd.reset();
  s.reap_blocking();
  SubprocessResult result = std::move(s.result);
  const std::size_t stdout_cap = s.stdout_cap;
  const std::size_t stderr_keep = s.stderr_keep;
  m_state.reset();
  if (result.stdout_text.size() > stdout_cap) {
    result.stdout_text.resize(stdout_cap);
  }
  if (result.stderr_text.size() > stderr_keep) {
    result.stderr_text.erase(0, result.stderr_text.size() - stderr_keep);
  }
  return result;
}

} // namespace mailroom::util
