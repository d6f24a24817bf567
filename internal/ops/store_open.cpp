#include "store_open.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "mail/duration.hpp"
#include "mail/retry.hpp"
#include "util/sleep.hpp"

namespace mailroom::ops {

Result<StoreOpen> open_store_when_up(Session& session,
                                     std::optional<std::chrono::steady_clock::time_point> deadline,
                                     int interrupt_fd)
{
  using Steady = std::chrono::steady_clock;
  mail::Millis backoff = 0;
  while (true) {
    auto opened = session.provider();
    if (opened.ok()) {
      return StoreOpen{*opened, false};
    }
    if (!mail::store_may_come_up(opened.error())) {
      return std::move(opened).error();
    }
    backoff = mail::next_store_retry(backoff);
    auto pause = std::chrono::milliseconds(backoff);
    if (deadline) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - Steady::now());
      if (left <= std::chrono::milliseconds(0)) {
        return std::move(opened).error(); // the store did not come up in time
      }
      pause = std::min(pause, left);
    }
    session.tell("store_retry", fmt::format("opening the store: {}; trying again in {}",
                                            opened.error().message, mail::format_duration(pause.count())));
    if (!util::sleep_until(Steady::now() + pause, interrupt_fd)) {
      return StoreOpen{nullptr, true};
    }
  }
}

} // namespace mailroom::ops
