#pragma once

// The plumbing of starting a child process, shared by Child (child.cpp): owned descriptors and
// pipes, argv/envp arrays for posix_spawn, the spawn attributes every child gets, and a guard
// that keeps SIGPIPE from our writes to a child away from the caller.

#include <string>
#include <vector>

#include <signal.h>
#include <spawn.h>

namespace mailroom::util::spawn {

// strerror(error) starting with a lower-case letter, for messages.
std::string errno_text(int error);

// A descriptor closed on scope exit.
class Fd {
public:
  Fd() = default;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }

  int get() const { return m_fd; }
  bool open() const { return m_fd >= 0; }
  void reset();
  // Owns `fd` from now on (closing what it held).
  void take(int fd);
  // Gives the descriptor up without closing it.
  int release()
  {
    const int fd = m_fd;
    m_fd = -1;
    return fd;
  }

private:
  int m_fd = -1;
};

// A pipe with O_CLOEXEC on both ends; false (errno set) when it cannot be made.
bool make_pipe(Fd& read_end, Fd& write_end);

// argv/envp for posix_spawn: pointers into `strings`, then a null.
std::vector<char*> to_pointers(std::vector<std::string>& strings);

// Owns spawn attributes and file actions so every exit path destroys them.
class SpawnSetup {
public:
  SpawnSetup();
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
  ~SpawnSetup();

  // The child's stdin/stdout/stderr become these descriptors, every other descriptor is closed,
  // it starts its own process group, and its signals are at their defaults and unblocked.
  // 0 on success, else an errno value.
  int configure(int stdin_fd, int stdout_fd, int stderr_fd);
  // After configure: the child starts a session of its own instead (setsid), so that it outlives
  // its caller untouched by the caller's terminal and process group. 0 on success, else errno.
  int detach();

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
  SigpipeGuard();
  SigpipeGuard(const SigpipeGuard&) = delete;
  SigpipeGuard& operator=(const SigpipeGuard&) = delete;
  ~SigpipeGuard();

private:
  sigset_t m_pipe_set{};
  sigset_t m_old_mask{};
  bool m_was_pending = false;
};

} // namespace mailroom::util::spawn
