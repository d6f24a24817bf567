#pragma once

// The loop behind `mailroom watch` (contract "Watching"): claim the next delivery, run the handler
// with the body on stdin while renewing the lease, then ack, reply, retry or set aside; wait for
// new mail as `wait` does. cmd/watch.cpp parses the flags and builds a Watcher.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/exit_code.hpp"
#include "context.hpp"
#include "mail/claims.hpp"
#include "text/display.hpp"
#include "util/child.hpp"
#include "util/interrupt.hpp"
#include "ops/watch_escalations.hpp"

namespace mailroom::cli {

// How long a handler may take to stop after SIGTERM (sent when watch itself is asked to stop)
// before its process group is killed. A second SIGINT/SIGTERM kills it at once.
inline constexpr mail::Millis k_handler_stop_grace_ms = 5 * mail::k_second_ms;

struct WatchSettings {
  mail::ClaimRequest claim; // mailbox, filters, lease, watcher name, max_attempts
  std::vector<std::string> argv;
  std::vector<std::pair<std::string, std::string>> env; // added to every handler's environment
  mail::Millis handler_timeout_ms = mail::k_default_handler_timeout_ms;
  bool once = false;
};

class Watcher {
public:
  Watcher(Context& ctx, mail::Provider& provider, WatchSettings settings, util::InterruptWatch& interrupt);

  // Runs until interrupted (130/143) or, with `once`, until nothing is claimable (0).
  // Errors: the store's, when they are not worth retrying (anything but store_error/timeout).
  Result<ExitCode> run();

private:
  // How one handler run ended (watch_handler.cpp).
  struct Ran {
    util::SubprocessResult result;
    bool lost = false; // the lease could not be renewed: the handler was killed
    std::string lost_reason;
    // Why it failed, in one line: its status and the last line of its stderr.
    std::string failure(mail::Millis timeout_ms) const;
  };

  // Handles one claim; false when watch was asked to stop meanwhile.
  Result<bool> handle(const mail::Claim& claim);
  Result<Ran> run_handler(const mail::Claim& claim);
  Result<void> succeed(const mail::Claim& claim, const std::string& output);
  Result<void> fail(const mail::Claim& claim, const std::string& reason);
  // Reports `claim` set aside after `attempts` (the last ending with `reason`) and holds it for
  // its escalation, sent at once unless the pair's last one is unread (ops/watch_escalations.hpp).
  void set_aside(const mail::Claim& claim, std::int64_t attempts, const std::string& reason);
  // Emits an `escalated` event for each escalation sent but the one about `current` (its
  // set_aside event says it), and warns of each that failed.
  void report_escalations(const std::vector<ops::HeldEscalations::Outcome>& outcomes,
                          const std::optional<mail::MessageId>& current);
  // Emits an `escalation_held` event for each recipient whose deliveries are still held.
  void report_held();
  // report_held(), then the exit status of a watch stopped by `sig`.
  ExitCode stopped(int sig);
  // Calls `fn` until it succeeds or fails with an error that is not the store's (store_error,
  // timeout); in between, warns and sleeps with backoff. Gives up (returning the last error) at
  // `give_up_ms` from now (-1: never) or when a signal arrives.
  template <typename Fn>
  auto retrying(const char* what, Fn&& fn, mail::Millis give_up_ms = -1) -> decltype(fn());

  // Writes `event` as JSON under --json, else `text` and a newline; a failed write is ignored.
  void emit(const nlohmann::json& event, const text::DisplayText& text);
  std::vector<std::pair<std::string, std::string>> environment_for(const mail::Message& message) const;

  Context& m_ctx;
  mail::Provider& m_provider;
  WatchSettings m_settings;
  util::InterruptWatch& m_interrupt;
  int m_stop_signal = 0; // SIGINT/SIGTERM once watch was asked to stop
  ops::HeldEscalations m_escalations;
};

} // namespace mailroom::cli
