#pragma once

// The exec provider's kept hook answers (contract "Round 4: decisions after review", Gas City):
// one 0600 file per script and mailbox under $XDG_CACHE_HOME/mailroom/hook/ (beside the facts
// cache, facts.hpp), holding the last `check` output the script gave for that mailbox and when,
// and a lock file beside it that the one running refresh holds. Never required: a file that
// cannot be read, parsed or written is the same as none.

#include <cstdint>
#include <optional>
#include <string>

#include "mail/message.hpp"

namespace mailroom::providers::exec {

// What the last refreshes found.
struct KeptAnswer {
  std::optional<mail::UnixMillis> at;        // when the script last answered (wall clock); nullopt: never
  std::string output;                        // that answer: its `check` stdout, as Script::run returned it
  std::optional<mail::UnixMillis> failed_at; // the last refresh that failed, when newer than `at`
  std::string error;                         // and why
};

class HookCache {
public:
  // The files for `script` (its resolved path, or the command as configured) and `mailbox` in
  // `dir` (empty: no cache; nothing is kept).
  HookCache(const std::string& dir, const std::string& script, const mail::Mailbox& mailbox);

  // The hook directory beside the facts cache file `facts_file` ("" when that is "").
  static std::string dir_beside(const std::string& facts_file);

  bool enabled() const { return !m_file.empty(); }
  KeptAnswer load() const;
  // Best effort (replace_private_file).
  void store(const KeptAnswer& kept) const;

  // The refresh lock, held while the object lives.
  class Lock {
  public:
    explicit Lock(int fd) : m_fd(fd) {}
    Lock(Lock&& other) noexcept : m_fd(other.m_fd) { other.m_fd = -1; }
    Lock& operator=(Lock&&) = delete;
    Lock(const Lock&) = delete;
    Lock& operator=(const Lock&) = delete;
    ~Lock();

  private:
    int m_fd = -1;
  };
  // The lock when no other process holds it; nullopt when one does (or it cannot be made).
  std::optional<Lock> try_lock() const;
  // Whether another process holds the lock now.
  bool busy() const;

  const std::string& file() const { return m_file; }

private:
  std::string m_file; // <dir>/<key>.json
  std::string m_lock; // <dir>/<key>.lock
};

} // namespace mailroom::providers::exec
