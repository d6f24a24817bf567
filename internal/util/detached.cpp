#include "util/detached.hpp"

#include <cerrno>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "util/environment.hpp"
#include "util/spawn_parts.hpp"

namespace mailroom::util {

using spawn::Fd;

Result<Detached> Detached::spawn(const std::vector<std::string>& argv)
{
  if (argv.empty() || argv[0].empty()) {
    return make_error(ErrorCode::provider_error, "no program to run");
  }
  const std::string& program = argv[0];
  auto spawn_error = [&](int error) {
    return make_error(ErrorCode::provider_error,
                      fmt::format("cannot run \"{}\": {}", program, spawn::errno_text(error)));
  };
  Fd null_fd;
  null_fd.take(::open("/dev/null", O_RDWR | O_CLOEXEC));
  if (!null_fd.open()) {
    return spawn_error(errno);
  }
  Fd read_end;
  Fd write_end;
  if (!spawn::make_pipe(read_end, write_end)) {
    return spawn_error(errno);
  }
  spawn::SpawnSetup setup;
  int rc = setup.configure(null_fd.get(), write_end.get(), null_fd.get());
  rc = rc != 0 ? rc : setup.detach();
  if (rc != 0) {
    return spawn_error(rc);
  }
  std::vector<std::string> argv_strings = argv;
  std::vector<char*> args = spawn::to_pointers(argv_strings);
  std::vector<std::string> env_strings = build_environment({});
  std::vector<char*> envp = spawn::to_pointers(env_strings);
  pid_t pid = -1;
  rc = ::posix_spawnp(&pid, program.c_str(), setup.actions(), setup.attr(), args.data(), envp.data());
  if (rc != 0) {
    return spawn_error(rc);
  }
  const int fd = read_end.release(); // the Detached owns it from here
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
  return Detached(pid, fd);
}

Detached::Detached(Detached&& other) noexcept : m_pid(other.m_pid), m_fd(other.m_fd), m_ended(other.m_ended)
{
  other.m_pid = -1;
  other.m_fd = -1;
}

Detached::~Detached()
{
  if (m_fd >= 0) {
    ::close(m_fd);
  }
  if (m_pid > 0) {
    ::waitpid(m_pid, nullptr, WNOHANG); // reap it if it has ended; never wait for it
  }
}

bool Detached::wait_until(Clock::time_point deadline)
{
  while (!m_ended && m_fd >= 0) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      return false;
    }
    pollfd watched{m_fd, POLLIN, 0};
    const int ready = ::poll(&watched, 1, static_cast<int>(left));
    if (ready < 0 && errno != EINTR) {
      return false;
    }
    if (ready <= 0) {
      continue;
    }
    char drop[512];
    const ssize_t n = ::read(m_fd, drop, sizeof drop);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
      m_ended = true;
    }
  }
  return m_ended;
}

std::string self_executable()
{
  std::string path(4096, '\0');
  const ssize_t n = ::readlink("/proc/self/exe", path.data(), path.size());
  if (n <= 0 || static_cast<std::size_t>(n) >= path.size()) {
    return {};
  }
  path.resize(static_cast<std::size_t>(n));
  return path;
}

} // namespace mailroom::util
