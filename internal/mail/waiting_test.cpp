// The idle heartbeat of `wait` and `watch` (mail/waiting.hpp) on a clock the test controls, and
// which store failures a waiter waits out (mail/retry.hpp).

#include <chrono>

#include <doctest/doctest.h>

#include "base/reasons.hpp"
#include "mail/retry.hpp"
#include "mail/waiting.hpp"
#include "testing/fixed_clock.hpp"

namespace mailroom::mail {

TEST_SUITE("mailroom::mail waiting")
{
  TEST_CASE("a waiter that starts waits for a server that does not answer or a locked store, nothing else")
  {
    Error down =
        make_error(ErrorCode::store_error, "cannot connect to postgresql at \"h\": connection refused");
    down.reason = std::string(k_reason_unreachable);
    CHECK(store_may_come_up(down));
    CHECK(store_may_come_up(make_error(ErrorCode::timeout, "database is locked")));
    Error missing = make_error(ErrorCode::store_error, "no store at x");
    missing.reason = "no_store";
    CHECK_FALSE(store_may_come_up(missing));
    CHECK_FALSE(store_may_come_up(make_error(ErrorCode::store_error, "password authentication failed")));
    CHECK_FALSE(store_may_come_up(make_error(ErrorCode::usage, "bad")));
    // Once it runs, it rides out more (store_may_recover): any store failure but a replaced store.
    CHECK(store_may_recover(make_error(ErrorCode::store_error, "password authentication failed")));
  }

  TEST_CASE("the heartbeat interval is a third of presence_after, never under a second")
  {
    CHECK(heartbeat_interval(30 * k_minute_ms) == 10 * k_minute_ms);
    CHECK(heartbeat_interval(3 * k_second_ms) == k_second_ms);
    CHECK(heartbeat_interval(600) == k_second_ms);
  }

  TEST_CASE("an idle heartbeat beats once per interval of the injected clock and cuts sleeps short")
  {
    testing::FixedClock clock;
    int beats = 0;
    IdleHeartbeat beat([&beats]() { ++beats; }, 10 * k_minute_ms, clock);
    const auto far = std::chrono::steady_clock::now() + std::chrono::hours(24);

    beat.beat_if_due();
    CHECK(beats == 0); // not at the start: the surface recorded that
    // The next beat is due in 10 min: no sleep lasts longer.
    const auto capped = beat.cap(far);
    CHECK(capped <= std::chrono::steady_clock::now() + std::chrono::minutes(10));
    const auto soon = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    CHECK(beat.cap(soon) == soon); // an earlier wake stays

    clock.advance(10 * k_minute_ms - 1);
    beat.beat_if_due();
    CHECK(beats == 0);
    clock.advance(1);
    beat.beat_if_due();
    CHECK(beats == 1);
    beat.beat_if_due();
    CHECK(beats == 1);               // once per interval, however often it is asked
    clock.advance(25 * k_minute_ms); // a long sleep (a suspended laptop): one beat, not two
    beat.beat_if_due();
    CHECK(beats == 2);
    // Overdue: the cap is now.
    clock.advance(11 * k_minute_ms);
    const auto now_capped = beat.cap(far);
    CHECK(now_capped <= std::chrono::steady_clock::now());
  }

  TEST_CASE("an idle heartbeat that is off never beats and never shortens a sleep")
  {
    IdleHeartbeat off;
    off.beat_if_due();
    const auto far = std::chrono::steady_clock::now() + std::chrono::hours(24);
    CHECK(off.cap(far) == far);
  }
}

} // namespace mailroom::mail
