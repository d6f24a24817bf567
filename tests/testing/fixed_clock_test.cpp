#include "testing/fixed_clock.hpp"

#include <doctest/doctest.h>

TEST_SUITE("mailroom::testing::FixedClock")
{
  TEST_CASE("FixedClock stands still until set, advanced or stepped")
  {
    mailroom::testing::FixedClock clock(100);
    CHECK(clock.now() == 100);
    CHECK(clock.now() == 100);
    clock.advance(5);
    CHECK(clock.now() == 105);
    clock.set(7);
    clock.set_step(2);
    CHECK(clock.now() == 7);
    CHECK(clock.now() == 9);
    CHECK(mailroom::testing::FixedClock().now() == mailroom::testing::FixedClock::k_default_start);
  }
}
