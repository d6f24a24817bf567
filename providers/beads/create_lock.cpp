#include "beads/create_lock.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>
#include <utility>

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

namespace mailroom::providers::beads {

Result<CreateLock> CreateLock::take(const std::string& dir, std::chrono::milliseconds wait)
{
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    return make_error(ErrorCode::store_error,
                      fmt::format("cannot open store directory \"{}\": {}", dir, std::strerror(error)));
  }
  CreateLock lock(fd);
  const auto deadline = std::chrono::steady_clock::now() + wait;
  std::chrono::milliseconds pause{1};
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      const int error = errno;
      return make_error(ErrorCode::store_error,
                        fmt::format("cannot lock store directory \"{}\": {}", dir, std::strerror(error)));
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      return make_error(
          ErrorCode::timeout,
          fmt::format("another process kept creating a store in \"{}\" for {} ms", dir, wait.count()),
          "run the command again once it has finished");
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(20));
  }
  return lock;
}

CreateLock::CreateLock(CreateLock&& other) noexcept : m_fd(std::exchange(other.m_fd, -1)) {}

CreateLock& CreateLock::operator=(CreateLock&& other) noexcept
{
  if (this != &other) {
    if (m_fd >= 0) {
      ::close(m_fd);
    }
    m_fd = std::exchange(other.m_fd, -1);
  }
  return *this;
}

CreateLock::~CreateLock()
{
  if (m_fd >= 0) {
    ::close(m_fd); // releases the flock
  }
}

} // namespace mailroom::providers::beads
