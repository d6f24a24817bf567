#include "util/interrupt.hpp"

#include <csignal>

#include <doctest/doctest.h>

using mailroom::util::InterruptWatch;

TEST_SUITE("mailroom::util::InterruptWatch")
{
  TEST_CASE("a signal is recorded, wakes the wait, and the old handler comes back")
  {
    // The runner may have its own handler (doctest catches SIGTERM): whatever was there comes back.
    struct sigaction before {};
    ::sigaction(SIGTERM, nullptr, &before);
    {
      auto watch = InterruptWatch::install();
      REQUIRE(watch.ok());
      CHECK((*watch)->received() == 0);
      CHECK((*watch)->wait_for(std::chrono::milliseconds(1)) == 0);
      REQUIRE(std::raise(SIGTERM) == 0); // would end the test binary without the watch
      CHECK((*watch)->received() == SIGTERM);
      const auto start = std::chrono::steady_clock::now();
      CHECK((*watch)->wait_for(std::chrono::hours(1)) == SIGTERM);
      CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
      REQUIRE(std::raise(SIGINT) == 0);
      CHECK((*watch)->received() == SIGTERM); // the first one counts
    }
    struct sigaction now {};
    ::sigaction(SIGTERM, nullptr, &now);
    CHECK((now.sa_handler == before.sa_handler));
  }
}
