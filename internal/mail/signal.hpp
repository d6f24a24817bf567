#pragma once

// Waiting for a store to change without busy polling (contract "Waiting").

#include <chrono>
#include <string>

#include "base/result.hpp"

namespace mailroom::mail {

enum class WakeReason { changed, timeout, interrupted };

// A store's change notification (SQLite: inotify on the store's directory, checked with
// PRAGMA data_version; PostgreSQL: LISTEN). It is a hint: re-read the state after every wake.
// Arm it before the first read so nothing committed after that read is missed.
class ChangeSignal {
public:
  virtual ~ChangeSignal() = default;
  // Blocks until the store may have changed since the previous call (or since creation), until
  // `deadline`, or until `interrupt_fd` (-1: none) becomes readable. Errors: store errors.
  virtual Result<WakeReason> wait(std::chrono::steady_clock::time_point deadline, int interrupt_fd) = 0;
  // Empty when changes wake the waiter; otherwise why they cannot and how it looks instead
  // (warning no_listen: "notifications unavailable (pooled connection); polling every 2s"),
  // for the caller to say once.
  virtual std::string degraded() const { return {}; }
};

// The warning code of ChangeSignal::degraded().
inline constexpr std::string_view k_no_listen_warning = "no_listen";

} // namespace mailroom::mail
