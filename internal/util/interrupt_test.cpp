#include "util/interrupt.hpp"

#include <csignal>

#include <poll.h>

#include <doctest/doctest.h>

namespace mailroom::util {

TEST_SUITE("mailroom::util::InterruptSignals")
{
  TEST_CASE("SIGTERM becomes a readable descriptor and is remembered; the mask is restored")
  {
    sigset_t before;
    ::pthread_sigmask(SIG_SETMASK, nullptr, &before);
    {
      auto signals = InterruptSignals::install();
      REQUIRE(signals.ok());
      CHECK(signals->received() == 0);
      CHECK(sleep_until(std::chrono::steady_clock::now() + std::chrono::milliseconds(5), signals->fd()));
      REQUIRE(::raise(SIGTERM) == 0); // blocked: pending, not delivered
      pollfd entry{signals->fd(), POLLIN, 0};
      CHECK(::poll(&entry, 1, 1000) == 1);
      CHECK_FALSE(sleep_until(std::chrono::steady_clock::now() + std::chrono::seconds(5), signals->fd()));
      CHECK(signals->received() == SIGTERM);
      CHECK(signals->received() == SIGTERM);
      CHECK(exit_status_for_signal(SIGTERM) == 143);
      CHECK(exit_status_for_signal(SIGINT) == 130);
    }
    sigset_t after;
    ::pthread_sigmask(SIG_SETMASK, nullptr, &after);
    CHECK(sigismember(&after, SIGTERM) == sigismember(&before, SIGTERM));
  }
}

} // namespace mailroom::util
