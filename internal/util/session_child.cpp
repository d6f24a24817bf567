#include "util/session_child.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>

#include <fcntl.h>
#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "util/environment.hpp"
#include "util/spawn_parts.hpp"

namespace mailroom::util {

namespace {

// Without a pidfd (kernels before 5.3) the exit is looked for at this interval.
constexpr int k_session_reap_poll_ms = 10;

void record_session_end(SubprocessResult& result, int status)
{
  if (WIFEXITED(status)) {
    result.exited = true;
    result.exit_status = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.term_signal = WTERMSIG(status);
  }
}

int wait_session_leader(pid_t pid)
{
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// Milliseconds from now to `deadline` for poll(2): 0 when past, capped far below INT_MAX.
int session_poll_ms(std::chrono::steady_clock::time_point deadline)
{
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  return static_cast<int>(std::clamp<std::chrono::milliseconds::rep>(left.count(), 0, 3600000));
}

} // namespace

Result<pid_t> spawn_in_session(const std::vector<std::string>& argv,
                               const std::vector<std::pair<std::string, std::string>>& extra_env)
{
  if (argv.empty() || argv[0].empty()) {
    return make_error(ErrorCode::provider_error, "no program to run");
  }
  const std::string& program = argv[0];
  auto spawn_error = [&](int error) {
    return make_error(ErrorCode::provider_error,
                      fmt::format("cannot run \"{}\": {}", program, spawn::errno_text(error)));
  };
  spawn::Fd null_fd;
  null_fd.take(::open("/dev/null", O_RDWR | O_CLOEXEC));
  if (!null_fd.open()) {
    return spawn_error(errno);
  }
  spawn::SpawnSetup setup;
  int rc = setup.configure(null_fd.get(), null_fd.get(), null_fd.get());
  rc = rc != 0 ? rc : setup.detach();
  if (rc != 0) {
    return spawn_error(rc);
  }
  std::vector<std::string> argv_strings = argv;
  std::vector<char*> args = spawn::to_pointers(argv_strings);
  std::vector<std::string> env_strings = build_environment(extra_env);
  std::vector<char*> envp = spawn::to_pointers(env_strings);
  pid_t pid = -1;
  rc = ::posix_spawnp(&pid, program.c_str(), setup.actions(), setup.attr(), args.data(), envp.data());
  if (rc != 0) {
    return spawn_error(rc);
  }
  return pid;
}

SubprocessResult wait_in_session(pid_t pid, std::chrono::steady_clock::time_point deadline)
{
  SubprocessResult result;
  // pidfd_open(2) through syscall(2), as util/child.cpp does.
  spawn::Fd pidfd;
  pidfd.take(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
  while (true) {
    int status = 0;
    const pid_t reaped = ::waitpid(pid, &status, WNOHANG);
    if (reaped == pid) {
      record_session_end(result, status);
      return result;
    }
    if (reaped < 0 && errno != EINTR) {
      return result; // not our child (already reaped elsewhere): nothing to report
    }
    const int left = session_poll_ms(deadline);
    if (left == 0) {
      break;
    }
    pollfd watched{pidfd.get(), POLLIN, 0};
    ::poll(&watched, pidfd.open() ? 1 : 0, pidfd.open() ? left : std::min(left, k_session_reap_poll_ms));
  }
  // The session leader's pid is its process group's id: the whole group goes.
  ::kill(-pid, SIGKILL);
  ::kill(pid, SIGKILL);
  record_session_end(result, wait_session_leader(pid));
  result.timed_out = true;
  return result;
}

bool reap_if_ended(pid_t pid)
{
  int status = 0;
  pid_t reaped = -1;
  do {
    reaped = ::waitpid(pid, &status, WNOHANG);
  } while (reaped < 0 && errno == EINTR);
  return reaped != 0;
}

} // namespace mailroom::util
