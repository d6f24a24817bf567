// The hook through a slow script (exec_provider_impl.hpp; docs/exec-protocol.md, "The hook
// through a slow script"): every hook starts one detached refresh of the script's `check` answer
// (unless one is running) and waits for it until the hook must answer; what it shows is the
// fresh answer when the refresh ended in time, else the last one kept, marked with its time.

#include <chrono>
#include <thread>

#include "exec/exec_provider_impl.hpp"
#include "exec/facts.hpp"
#include "util/environment.hpp"

namespace mailroom::providers::exec {

namespace {

// gc's limit on one script run; the refresh never runs longer, whatever [exec] timeout_ms says.
constexpr std::chrono::milliseconds k_refresh_limit{30'000};
// How often a hook looks whether a refresh that another hook started has ended.
constexpr std::chrono::milliseconds k_busy_poll{20};

} // namespace

HookCache ExecProvider::hook_cache(const Mailbox& mailbox) const
{
  const std::optional<ScriptKey> key = identify_script(m_command, util::ProcessEnvironment());
  return HookCache(m_hook_dir, key ? key->path : m_command, mailbox);
}

Result<std::optional<mail::HookAnswer>>
ExecProvider::hook_check(const Mailbox& mailbox, std::size_t limit, std::optional<std::size_t> body_bytes,
                         std::chrono::steady_clock::time_point answer_by,
                         const mail::StartRefresh& start_refresh)
{
  using Clock = std::chrono::steady_clock;
  const mail::UnixMillis started = m_clock->now();
  const HookCache cache = hook_cache(mailbox);
  bool ended = false; // the refresh this hook waited for ended in time
  if (cache.busy()) {
    // Another hook's refresh is running: at most one at a time, so wait for that one.
    while (cache.busy() && Clock::now() + k_busy_poll < answer_by) {
      std::this_thread::sleep_for(k_busy_poll);
    }
    ended = !cache.busy();
  } else {
    TRY_ASSIGN(std::unique_ptr<mail::RefreshRun> run, start_refresh());
    ended = run->wait_until(answer_by);
  }
  const KeptAnswer kept = cache.load();
  // A failure is this hook's only when the refresh it waited for ended: one recorded in the same
  // millisecond by an earlier hook's refresh is not (its time alone cannot tell them apart).
  if (ended && kept.failed_at && *kept.failed_at >= started && (!kept.at || *kept.at < started)) {
    // This hook's refresh failed: say why, as a hook that ran the script itself would.
    return make_error(ErrorCode::provider_error, kept.error);
  }
  if (!kept.at) {
    return std::optional<mail::HookAnswer>(); // nothing the script ever said: silent
  }
  auto result = check_from_output(mailbox, kept.output, limit, body_bytes);
  if (!result.ok()) {
    return std::optional<mail::HookAnswer>(); // a kept answer that no longer parses is none
  }
  mail::HookAnswer answer;
  answer.result = std::move(result).value();
  if (*kept.at < started) {
    answer.as_of = *kept.at;
  }
  return std::optional<mail::HookAnswer>(std::move(answer));
}

Result<bool> ExecProvider::refresh_hook_check(const Mailbox& mailbox)
{
  const HookCache cache = hook_cache(mailbox);
  std::optional<HookCache::Lock> lock = cache.try_lock();
  if (!lock) {
    return false; // another refresh runs: its answer will do
  }
  m_script.limit_time(k_refresh_limit);
  KeptAnswer kept = cache.load();
  auto out = m_script.run("check", mailbox);
  // Kept only once it parses: a hook never shows what the script did not say.
  Result<mail::CheckResult> parsed = out.ok() ? check_from_output(mailbox, out->text, 0, std::nullopt)
                                              : Result<mail::CheckResult>(out.error());
  if (!parsed.ok()) {
    kept.failed_at = m_clock->now();
    kept.error = parsed.error().message;
    cache.store(kept);
    return std::move(parsed).error();
  }
  kept.at = m_clock->now();
  kept.output = out->text;
  kept.failed_at.reset();
  kept.error.clear();
  cache.store(kept);
  return true;
}

} // namespace mailroom::providers::exec
