#pragma once

// A mail::Clock for tests: time stands still unless a test moves it (or asks it to step on each read).

#include "mail/clock.hpp"

namespace mailroom::testing {

class FixedClock final : public mail::Clock {
public:
  // 2025-06-15T10:30:00Z, the instant Gas City's tests use.
  static constexpr mail::UnixMillis k_default_start = 1749983400000;

  explicit FixedClock(mail::UnixMillis start = k_default_start) : m_now(start) {}

  // The current fixed time; afterwards moves forward by the step set with set_step (0 by default).
  mail::UnixMillis now() const override
  {
    const mail::UnixMillis current = m_now;
    m_now += m_step;
    return current;
  }

  // Sets the time to `millis`.
  void set(mail::UnixMillis millis) { m_now = millis; }
  // Moves the time forward by `millis`.
  void advance(mail::UnixMillis millis) { m_now += millis; }
  // Makes every later now() call move the time forward by `millis` after answering.
  void set_step(mail::UnixMillis millis) { m_step = millis; }

private:
  // mutable: a stepping clock changes on read, which Clock::now() declares const.
  mutable mail::UnixMillis m_now;
  mail::UnixMillis m_step = 0;
};

} // namespace mailroom::testing
