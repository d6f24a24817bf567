#include "util/spawn_parts.hpp"

#include <array>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstring>

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

namespace mailroom::util::spawn {

std::string errno_text(int error)
{
  std::string text = std::strerror(error); // NOLINT(concurrency-mt-unsafe): message only
  if (!text.empty()) {
    text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  }
  return text;
}

void Fd::reset()
{
  if (m_fd >= 0) {
    ::close(m_fd);
    m_fd = -1;
  }
}

void Fd::take(int fd)
{
  reset();
  m_fd = fd;
}

bool make_pipe(Fd& read_end, Fd& write_end)
{
  std::array<int, 2> fds{};
  if (::pipe2(fds.data(), O_CLOEXEC) != 0) {
    return false;
  }
  read_end.take(fds[0]);
  write_end.take(fds[1]);
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

SpawnSetup::SpawnSetup()
{
  ::posix_spawn_file_actions_init(&m_actions);
  ::posix_spawnattr_init(&m_attr);
}

SpawnSetup::~SpawnSetup()
{
  ::posix_spawn_file_actions_destroy(&m_actions);
  ::posix_spawnattr_destroy(&m_attr);
}

int SpawnSetup::configure(int stdin_fd, int stdout_fd, int stderr_fd)
{
  int rc = ::posix_spawn_file_actions_adddup2(&m_actions, stdin_fd, STDIN_FILENO);
  rc = rc != 0 ? rc : ::posix_spawn_file_actions_adddup2(&m_actions, stdout_fd, STDOUT_FILENO);
  rc = rc != 0 ? rc : ::posix_spawn_file_actions_adddup2(&m_actions, stderr_fd, STDERR_FILENO);
  // Descriptors the caller opened without O_CLOEXEC (a SQLite handle, a log) must not leak.
  rc = rc != 0 ? rc : ::posix_spawn_file_actions_addclosefrom_np(&m_actions, 3);
  rc = rc != 0 ? rc : ::posix_spawnattr_setpgroup(&m_attr, 0);
  // The caller may ignore or block SIGPIPE, SIGINT and friends (wait and watch catch SIGINT and
  // SIGTERM with util::InterruptWatch); the child gets a clean slate. exec already resets caught
  // signals, so only an ignored one would survive: these are the ones a shell, nohup or mailroom
  // ignores. Naming them, not every signal, spares the child ~50 sigaction calls per spawn.
  sigset_t defaults;
  sigemptyset(&defaults);
  for (const int sig : {SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2, SIGCHLD,
                        SIGTSTP, SIGTTIN, SIGTTOU, SIGXFSZ}) {
    sigaddset(&defaults, sig);
  }
  sigset_t mask;
  sigemptyset(&mask);
  rc = rc != 0 ? rc : ::posix_spawnattr_setsigdefault(&m_attr, &defaults);
  rc = rc != 0 ? rc : ::posix_spawnattr_setsigmask(&m_attr, &mask);
  const auto flags =
      static_cast<short>(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  rc = rc != 0 ? rc : ::posix_spawnattr_setflags(&m_attr, flags);
  return rc;
}

int SpawnSetup::detach()
{
  const auto flags = static_cast<short>(POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  return ::posix_spawnattr_setflags(&m_attr, flags);
}

SigpipeGuard::SigpipeGuard()
{
  sigemptyset(&m_pipe_set);
  sigaddset(&m_pipe_set, SIGPIPE);
  sigset_t pending;
  sigemptyset(&pending);
  ::sigpending(&pending);
  m_was_pending = sigismember(&pending, SIGPIPE) == 1;
  ::pthread_sigmask(SIG_BLOCK, &m_pipe_set, &m_old_mask);
}

SigpipeGuard::~SigpipeGuard()
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

} // namespace mailroom::util::spawn
