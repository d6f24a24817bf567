#include "util/file_read.hpp"

#include <cerrno>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mailroom::util {

std::optional<std::string> read_file(const std::string& path, std::size_t cap)
{
  int fd = -1;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    return std::nullopt;
  }
  std::optional<std::string> text = read_fd(fd, cap);
  const int error = errno;
  ::close(fd);
  errno = error;
  return text;
}

std::optional<std::string> read_fd(int fd, std::size_t cap)
{
  std::string text;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && st.st_size > 0 && static_cast<std::size_t>(st.st_size) <= cap) {
    text.reserve(static_cast<std::size_t>(st.st_size));
  }
  char buffer[8192]; // NOLINT(cppcoreguidelines-avoid-c-arrays): read(2)'s scratch space
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      return std::nullopt;
    }
    if (n == 0) {
      return text;
    }
    if (text.size() + static_cast<std::size_t>(n) > cap) {
      errno = EFBIG;
      return std::nullopt;
    }
    text.append(buffer, static_cast<std::size_t>(n));
  }
}

} // namespace mailroom::util
