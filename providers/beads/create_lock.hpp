#pragma once

// Creating a store is serialised per directory: concurrent creators (several `init`s started at
// once) take turns, so none of them meets the 0-byte file SQLite creates before it writes the
// first page (which any other opener rightly calls a truncated store).

#include <chrono>
#include <string>

#include "base/result.hpp"

namespace mailroom::providers::beads {

// An exclusive flock(2) on a directory, released when destroyed.
class CreateLock {
public:
  // Waits up to `wait` for the lock on `dir`. Errors: store_error naming `dir` (it cannot be
  // opened, or another process held the lock all that time).
  static Result<CreateLock> take(const std::string& dir, std::chrono::milliseconds wait);

  CreateLock(CreateLock&& other) noexcept;
  CreateLock& operator=(CreateLock&& other) noexcept;
  CreateLock(const CreateLock&) = delete;
  CreateLock& operator=(const CreateLock&) = delete;
  ~CreateLock();

private:
  explicit CreateLock(int fd) : m_fd(fd) {}
  int m_fd = -1;
};

} // namespace mailroom::providers::beads
