#pragma once

// The hook-check facet: a store whose answers may take longer than the hook may wait (the exec
// provider: a script may take seconds, and gc allows it 30) keeps the last answer it gave, so
// that the hook is never silently empty once an answer is known (contract "Gas City, round 4",
// "The hook through a slow script"). A store without it answers Provider::check within the
// hook's budget itself.

#include <chrono>
#include <functional>
#include <memory>
#include <optional>

#include "base/result.hpp"
#include "mail/message.hpp"
#include "mail/views.hpp"

namespace mailroom::mail {

// The hook's answer: the store's own, or the last one it gave, with the time it gave it.
struct HookAnswer {
  CheckResult result;
  std::optional<UnixMillis> as_of; // set when the answer is older than this hook
};

// Starts one detached refresh (HookCheck::refresh_hook_check) for the mailbox being checked and
// returns a way to wait for its end; the caller knows how to start one (the CLI runs itself).
class RefreshRun {
public:
  virtual ~RefreshRun() = default;
  // True when the refresh ended by `deadline`.
  virtual bool wait_until(std::chrono::steady_clock::time_point deadline) = 0;
};
using StartRefresh = std::function<Result<std::unique_ptr<RefreshRun>>()>;

class HookCheck {
public:
  // The hook's check of `mailbox`, answered by `answer_by`: a refresh is started (unless one is
  // running already: at most one at a time) and waited for until `answer_by`; when it ended in
  // time the answer is fresh, otherwise it is the last answer kept, marked with its time. nullopt:
  // no answer was ever kept (the first run stays silent). The refresh keeps running after the
  // caller has answered. Messages and totals as Provider::check (at most `limit`, bodies cut to
  // `body_bytes`). Errors: a kept answer that no longer parses is none, never an error; the
  // refresh's own errors reach only the refresh.
  virtual Result<std::optional<HookAnswer>> hook_check(const Mailbox& mailbox, std::size_t limit,
                                                       std::optional<std::size_t> body_bytes,
                                                       std::chrono::steady_clock::time_point answer_by,
                                                       const StartRefresh& start_refresh) = 0;
  // The detached refresh: the store's check of `mailbox` with its own time limit (the exec
  // protocol's, at most 30 s), kept for later hooks. False (nothing run) when another refresh of
  // the same mailbox is running. Errors: the store's.
  virtual Result<bool> refresh_hook_check(const Mailbox& mailbox) = 0;

protected:
  ~HookCheck() = default; // a facet is reached through Provider::facets(), never owned
};

} // namespace mailroom::mail
