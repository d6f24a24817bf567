#include "util/atomic_file.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

namespace mailroom::util {

namespace {

// errno after writing every byte of `data` to `fd`; 0 when all were written.
int write_all(int fd, std::string_view data)
{
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return errno;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

} // namespace

Result<void> write_file_atomically(const std::string& path, std::string_view content, mode_t mode)
{
  std::string temporary = path + ".tmp-XXXXXX";
  const int fd = ::mkostemp(temporary.data(), O_CLOEXEC);
  if (fd < 0) {
    return make_error(ErrorCode::store_error,
                      fmt::format("cannot write \"{}\": {}", path, std::strerror(errno)));
  }
  int error = ::fchmod(fd, mode) != 0 ? errno : 0;
  if (error == 0) {
    error = write_all(fd, content);
  }
  if (error == 0 && ::fsync(fd) != 0) {
    error = errno;
  }
  if (::close(fd) != 0 && error == 0) {
    error = errno;
  }
  if (error == 0 && ::rename(temporary.c_str(), path.c_str()) != 0) {
    error = errno;
  }
  if (error != 0) {
    ::unlink(temporary.c_str());
    return make_error(ErrorCode::store_error,
                      fmt::format("cannot write \"{}\": {}", path, std::strerror(error)));
  }
  return {};
}

} // namespace mailroom::util
