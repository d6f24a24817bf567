#include "util/sleep.hpp"

#include <algorithm>

#include <poll.h>

namespace mailroom::util {

bool sleep_until(std::chrono::steady_clock::time_point deadline, int fd)
{
  while (true) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      return true;
    }
    const auto ms = std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count();
    pollfd entry{fd, POLLIN, 0};
    const int ready =
        ::poll(&entry, fd >= 0 ? 1 : 0, static_cast<int>(std::min<long long>(ms, 3600LL * 1000)));
    if (ready > 0) {
      return false;
    }
  }
}

int exit_status_for_signal(int signal)
{
  return 128 + signal;
}

} // namespace mailroom::util
