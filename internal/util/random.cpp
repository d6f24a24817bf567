#include "util/random.hpp"

#include <cerrno>

#include <sys/random.h>

namespace mailroom::util {

std::string random_bytes(std::size_t count)
{
  std::string out(count, '\0');
  std::size_t filled = 0;
  while (filled < count) {
    const ssize_t got = ::getrandom(out.data() + filled, count - filled, 0);
    if (got > 0) {
      filled += static_cast<std::size_t>(got);
    } else if (got < 0 && errno != EINTR) {
      // getrandom only fails without a kernel entropy source (Linux < 3.17); nothing to fall back to.
      break;
    }
  }
  return out;
}

} // namespace mailroom::util
