#pragma once

// Time source, injected so tests can fix "now".

#include <chrono>

#include "mail/message.hpp"

namespace mailroom::mail {

class Clock {
public:
  virtual ~Clock() = default;
  // Milliseconds since the Unix epoch, UTC.
  virtual UnixMillis now() const = 0;
};

class SystemClock final : public Clock {
public:
  UnixMillis now() const override
  {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
  }
};

} // namespace mailroom::mail
