#include "util/sleep.hpp"

#include <csignal>

#include <unistd.h>

#include <doctest/doctest.h>

namespace mailroom::util {

TEST_SUITE("mailroom::util::sleep_until")
{
  TEST_CASE("the deadline or a readable descriptor ends the sleep; signals map to 130 and 143")
  {
    int fds[2] = {-1, -1};
    REQUIRE(::pipe(fds) == 0);
    CHECK(sleep_until(std::chrono::steady_clock::now() + std::chrono::milliseconds(5), fds[0]));
    CHECK(sleep_until(std::chrono::steady_clock::now() + std::chrono::milliseconds(5), -1));
    const char byte = 1;
    REQUIRE(::write(fds[1], &byte, 1) == 1);
    const auto start = std::chrono::steady_clock::now();
    CHECK_FALSE(sleep_until(start + std::chrono::seconds(5), fds[0]));
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
    ::close(fds[0]);
    ::close(fds[1]);
    CHECK(exit_status_for_signal(SIGTERM) == 143);
    CHECK(exit_status_for_signal(SIGINT) == 130);
  }
}

} // namespace mailroom::util
