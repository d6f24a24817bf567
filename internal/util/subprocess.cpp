#include "util/subprocess.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <string_view>

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "util/environment.hpp"


namespace mailroom::util {

namespace {

// After the script exits, its background children may still hold our pipes; Go waits a little
// (WaitDelay) before giving up on them, and so do we.
constexpr std::chrono::milliseconds k_pipe_grace{200};
// How often the loop looks for the child's exit while pipes stay open.
constexpr std::chrono::milliseconds k_tick{20};
// Once the child has closed its pipes it is normally exiting: look for its exit sooner, backing off
// to k_tick, rather than sleep a whole tick on every call.
constexpr std::chrono::milliseconds k_first_idle_tick{1};
constexpr std::size_t k_read_chunk = 64U * 1024U;

std::string lower_first(std::string text)
{
  if (!text.empty()) {
    text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  }
  return text;
}

std::string errno_text(int error)
{
  return lower_first(std::strerror(error)); // NOLINT(concurrency-mt-unsafe): message only
}

// A descriptor closed on scope exit.
class Fd {
public:
  Fd() = default;
  explicit Fd(int fd) : m_fd(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }

  int get() const { return m_fd; }
  bool open() const { return m_fd >= 0; }
  void reset()
  {
    if (m_fd >= 0) {
      ::close(m_fd);
      m_fd = -1;
    }
  }
  void take(int fd)
  {
    reset();
    m_fd = fd;
  }

private:
  int m_fd = -1;
};

struct Pipe {
  Fd read_end;
  Fd write_end;
};

bool make_pipe(Pipe& pipe)
{
  std::array<int, 2> fds{};
  if (::pipe2(fds.data(), O_CLOEXEC) != 0) {
    return false;
  }
  pipe.read_end.take(fds[0]);
  pipe.write_end.take(fds[1]);
  return true;
}

std::vector<char*> to_pointers(std::vector<std::string>& strings)
{
  std::vector<char*> pointers;
  pointers.reserve(strings.size() + 1);
  for (auto& s : strings) {
    pointers.push_back(s.data());
  }
  pointers.push_back(nullptr);
  return pointers;
}

// Owns spawn attributes and file actions so every exit path destroys them.
class SpawnSetup {
public:
  SpawnSetup()
  {
    ::posix_spawn_file_actions_init(&m_actions);
    ::posix_spawnattr_init(&m_attr);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
  ~SpawnSetup()
  {
    ::posix_spawn_file_actions_destroy(&m_actions);
    ::posix_spawnattr_destroy(&m_attr);
  }

  // 0 on success, else an errno value.
  int configure(int stdin_fd, int stdout_fd, int stderr_fd)
  {
    int rc = ::posix_spawn_file_actions_adddup2(&m_actions, stdin_fd, STDIN_FILENO);
    rc = rc != 0 ? rc : ::posix_spawn_file_actions_adddup2(&m_actions, stdout_fd, STDOUT_FILENO);
    rc = rc != 0 ? rc : ::posix_spawn_file_actions_adddup2(&m_actions, stderr_fd, STDERR_FILENO);
    // Descriptors the caller opened without O_CLOEXEC (a SQLite handle, a log) must not leak.
    rc = rc != 0 ? rc : ::posix_spawn_file_actions_addclosefrom_np(&m_actions, 3);
    rc = rc != 0 ? rc : ::posix_spawnattr_setpgroup(&m_attr, 0);
    // The caller may ignore or block SIGPIPE and friends; the script gets a clean slate.
    sigset_t defaults;
    sigfillset(&defaults);
    sigdelset(&defaults, SIGKILL);
    sigdelset(&defaults, SIGSTOP);
    sigset_t mask;
    sigemptyset(&mask);
    rc = rc != 0 ? rc : ::posix_spawnattr_setsigdefault(&m_attr, &defaults);
    rc = rc != 0 ? rc : ::posix_spawnattr_setsigmask(&m_attr, &mask);
    const auto flags = static_cast<short>(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF
                                          | POSIX_SPAWN_SETSIGMASK);
    rc = rc != 0 ? rc : ::posix_spawnattr_setflags(&m_attr, flags);
    return rc;
  }

  const posix_spawn_file_actions_t* actions() const { return &m_actions; }
  const posix_spawnattr_t* attr() const { return &m_attr; }

private:
  posix_spawn_file_actions_t m_actions{};
  posix_spawnattr_t m_attr{};
};

// Blocks SIGPIPE for this thread while writing to the child's stdin, then swallows a SIGPIPE
// our own writes raised, so the caller's disposition and pending set are left as found.
class SigpipeGuard {
public:
  SigpipeGuard()
  {
    sigemptyset(&m_pipe_set);
    sigaddset(&m_pipe_set, SIGPIPE);
    sigset_t pending;
    sigemptyset(&pending);
    ::sigpending(&pending);
    m_was_pending = sigismember(&pending, SIGPIPE) == 1;
    ::pthread_sigmask(SIG_BLOCK, &m_pipe_set, &m_old_mask);
  }
  SigpipeGuard(const SigpipeGuard&) = delete;
  SigpipeGuard& operator=(const SigpipeGuard&) = delete;
  ~SigpipeGuard()
  {
    if (!m_was_pending) {
      sigset_t pending;
      sigemptyset(&pending);
      ::sigpending(&pending);
      if (sigismember(&pending, SIGPIPE) == 1) {
        const timespec zero{};
        while (::sigtimedwait(&m_pipe_set, nullptr, &zero) < 0 && errno == EINTR) {
        }
      }
    }
    ::pthread_sigmask(SIG_SETMASK, &m_old_mask, nullptr);
  }

private:
  sigset_t m_pipe_set{};
  sigset_t m_old_mask{};
  bool m_was_pending = false;
};

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
  std::array<char, k_read_chunk> buffer{};
  const ssize_t n = ::read(fd, buffer.data(), buffer.size());
  if (n > 0) {
    sink.append(buffer.data(), static_cast<std::size_t>(n));
    return true;
  }
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
    return true;
  }
  return false;
}

} // namespace

std::string SubprocessResult::describe_status() const
{
  if (exited) {
    return fmt::format("exit status {}", exit_status);
  }
  const char* description = ::sigdescr_np(term_signal);
  if (description == nullptr) {
    return fmt::format("signal: {}", term_signal);
  }
  return "signal: " + lower_first(description);
}

Result<SubprocessResult> run_subprocess(const SubprocessOptions& options)
{
  if (options.argv.empty() || options.argv[0].empty()) {
    return make_error(ErrorCode::provider_error, "no program to run");
  }
  const std::string& program = options.argv[0];
  auto spawn_error = [&](int error) {
    return make_error(ErrorCode::provider_error,
                            fmt::format("cannot run \"{}\": {}", program, errno_text(error)));
  };

  Pipe in;
  Pipe out;
  Pipe err;
  if (!make_pipe(in) || !make_pipe(out) || !make_pipe(err)) {
    return spawn_error(errno);
  }
  SpawnSetup setup;
  if (const int rc = setup.configure(in.read_end.get(), out.write_end.get(), err.write_end.get()); rc != 0) {
    return spawn_error(rc);
  }
  std::vector<std::string> argv_strings = options.argv;
  std::vector<char*> argv = to_pointers(argv_strings);
  std::vector<std::string> env_strings = build_environment(options.extra_env);
  std::vector<char*> envp = to_pointers(env_strings);

  pid_t pid = -1;
  if (const int rc = ::posix_spawnp(&pid, program.c_str(), setup.actions(), setup.attr(), argv.data(),
                                    envp.data());
      rc != 0) {
    return spawn_error(rc);
  }
  in.read_end.reset();
  out.write_end.reset();
  err.write_end.reset();

  SigpipeGuard sigpipe_guard;
  SubprocessResult result;
  std::size_t stdin_written = 0;
  if (options.stdin_data.empty()) {
    in.write_end.reset();
  } else {
    ::fcntl(in.write_end.get(), F_SETFL, ::fcntl(in.write_end.get(), F_GETFL) | O_NONBLOCK);
  }

  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + options.timeout;
  bool reaped = false;
  Clock::time_point exited_at{};
  auto kill_group = [&] { ::kill(-pid, SIGKILL); };
  std::chrono::milliseconds idle_tick = k_first_idle_tick;

  while (true) {
    if (!reaped) {
      int status = 0;
      const pid_t waited = ::waitpid(pid, &status, WNOHANG);
      if (waited == pid) {
        record_status(result, status);
        reaped = true;
        exited_at = Clock::now();
      }
    }
    const auto now = Clock::now();
    if (reaped && (!(out.read_end.open() || err.read_end.open()) || now - exited_at >= k_pipe_grace)) {
      break;
    }
    if (!reaped && now >= deadline) {
      kill_group();
      result.timed_out = true;
      break;
    }

    std::array<pollfd, 3> fds{};
    std::array<Fd*, 3> owners{};
    nfds_t count = 0;
    auto watch = [&](Fd& fd, short events) {
      if (fd.open()) {
        fds[count] = pollfd{fd.get(), events, 0};
        owners[count] = &fd;
        ++count;
      }
    };
    watch(in.write_end, POLLOUT);
    watch(out.read_end, POLLIN);
    watch(err.read_end, POLLIN);

    auto wait_for = reaped ? k_pipe_grace - (now - exited_at) : deadline - now;
    if (count == 0) {
      wait_for = std::min<Clock::duration>(wait_for, idle_tick);
      idle_tick = std::min(idle_tick * 2, k_tick);
    } else {
      wait_for = std::min<Clock::duration>(wait_for, k_tick);
    }
    const auto wait_ms = std::chrono::ceil<std::chrono::milliseconds>(wait_for).count();
    const int ready = ::poll(fds.data(), count, static_cast<int>(std::max<long long>(wait_ms, 0)));
    if (ready <= 0) {
      continue; // timeout tick or EINTR
    }
    for (nfds_t i = 0; i < count; ++i) {
      if (fds[i].revents == 0) {
        continue;
      }
      Fd& fd = *owners[i];
      if (&fd == &in.write_end) {
        const std::string& data = options.stdin_data;
        const ssize_t n = ::write(fd.get(), data.data() + stdin_written, data.size() - stdin_written);
        if (n > 0) {
          stdin_written += static_cast<std::size_t>(n);
        }
        // EPIPE/POLLERR: the child closed its stdin without reading it all, which is its right.
        if (stdin_written == data.size() || (n < 0 && errno != EAGAIN && errno != EINTR)
            || (fds[i].revents & (POLLERR | POLLHUP)) != 0) {
          fd.reset();
        }
      } else if (&fd == &out.read_end) {
        if (!drain(fd.get(), result.stdout_text)) {
          fd.reset();
        }
      } else if (!drain(fd.get(), result.stderr_text)) {
        fd.reset();
      }
    }
    if (result.stdout_text.size() > options.stdout_cap) {
      result.over_cap = true;
      if (!reaped) {
        kill_group();
      }
      break;
    }
    if (result.stderr_text.size() > 2 * options.stderr_keep) {
      result.stderr_text.erase(0, result.stderr_text.size() - options.stderr_keep);
    }
  }

  in.write_end.reset();
  out.read_end.reset();
  err.read_end.reset();
  if (!reaped) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    record_status(result, status);
  }
  if (result.stdout_text.size() > options.stdout_cap) {
    result.stdout_text.resize(options.stdout_cap);
  }
  if (result.stderr_text.size() > options.stderr_keep) {
    result.stderr_text.erase(0, result.stderr_text.size() - options.stderr_keep);
  }
  return result;
}

} // namespace mailroom::util
