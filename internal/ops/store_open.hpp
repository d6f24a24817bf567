#pragma once

// Opening the store for a command that waits (`wait`, `send --wait-reply`, `watch`): started while
// a PostgreSQL server is down or restarting, or while a SQLite store is locked, it waits for the
// store as it rides out the same failures once it runs (docs/several-hosts.md §7), instead of
// failing at once. The rule (which failures, what backoff) is mail/retry.hpp's.

#include <chrono>
#include <optional>

#include "mail/provider.hpp"
#include "session.hpp"

namespace mailroom::ops {

struct StoreOpen {
  mail::Provider* provider = nullptr; // null only when interrupted
  bool interrupted = false;           // `interrupt_fd` became readable while waiting
};

// The session's provider. An open failure that may pass (mail::store_may_come_up) is tried again
// after mail::next_store_retry's pause (0.5 s doubling to 30 s), each failed try told as a
// `store_retry` notice ("opening the store: <error>; trying again in <pause>"), until `deadline`
// (nullopt: none) or until `interrupt_fd` (-1: none) is readable. Errors: the open error that may
// not pass, or the last one when the deadline came first.
Result<StoreOpen> open_store_when_up(Session& session,
                                     std::optional<std::chrono::steady_clock::time_point> deadline,
                                     int interrupt_fd);

} // namespace mailroom::ops
