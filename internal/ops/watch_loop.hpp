#pragma once

// The loop behind `watch` (watch.hpp; contract "Watching"): claim the next delivery, run the
// handler with the body on stdin while renewing the lease, then ack, reply, retry or set aside;
// wait for new mail as `wait` does. ops::watch decides the settings and builds a Watcher.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "mail/claims.hpp"
#include "mail/request.hpp"
#include "session.hpp"
#include "text/display.hpp"
#include "util/child.hpp"
#include "util/interrupt.hpp"
#include "watch.hpp"
#include "watch_escalations.hpp"

namespace mailroom::ops {

// How long a handler may take to stop after SIGTERM (sent when watch itself is asked to stop)
// before its process group is killed. A second SIGINT/SIGTERM kills it at once.
inline constexpr mail::Millis k_handler_stop_grace_ms = 5 * mail::k_second_ms;

struct WatchSettings {
  mail::ClaimRequest claim; // mailbox, filters, lease, watcher name, max_attempts
  std::vector<std::string> argv;
  std::vector<std::pair<std::string, std::string>> env; // added to every handler's environment
  mail::Millis handler_timeout_ms = mail::k_default_handler_timeout_ms;
  mail::Millis cancel_grace_ms = mail::k_default_cancel_grace_ms;
  bool once = false;
};

class Watcher {
public:
  Watcher(Session& session, mail::Provider& provider, WatchSettings settings, util::InterruptWatch& interrupt,
          WatchEmit emit);

  // Runs until interrupted (the signal) or, with `once`, until nothing is claimable (0).
  // Errors: the store's, when they are not worth retrying (anything but store_error/timeout).
  Result<WatchEnd> run();

private:
  // How one handler run ended (watch_handler.cpp).
  struct Ran {
    util::SubprocessResult result;
    bool lost = false; // the lease could not be renewed: the handler was killed
    std::string lost_reason;
    bool canceled = false; // its sender canceled the request: the handler was stopped
    // Why it failed, in one line: its status and the last line of its stderr.
    std::string failure(mail::Millis timeout_ms) const;
  };

  // Handles one claim; false when watch was asked to stop meanwhile.
  Result<bool> handle(const mail::Claim& claim);
  // Runs the handler; for a request, stops it (ran.canceled) when its sender cancels it.
  Result<Ran> run_handler(const mail::Claim& claim);
  // The claimed delivery's request state now (nullopt: no request, or it could not be read).
  std::optional<mail::RequestState> request_now(const mail::Claim& claim);
  // True when the claimed delivery's request was canceled (watch_handler.cpp).
  bool canceled_now(const mail::Claim& claim);
  // When the handler left its request rejected, failed, waiting for input or canceled (or its
  // sender canceled it): no reply, no retry, the claim released and the event reported; true
  // when it was so. `state` is the request's state after the handler.
  Result<bool> settle_answered(const mail::Claim& claim, mail::RequestState state, bool stopped);
  // `answered`: the handler replied itself (the request is completed): its output is not sent.
  Result<void> succeed(const mail::Claim& claim, const std::string& output, bool answered = false);
  Result<void> fail(const mail::Claim& claim, const std::string& reason);
  // Reports `claim` set aside after `attempts` (the last ending with `reason`) and holds it for
  // its escalation, sent at once unless the pair's last one is unread (ops/watch_escalations.hpp).
  void set_aside(const mail::Claim& claim, std::int64_t attempts, const std::string& reason);
  // Emits an `escalated` event for each escalation sent but the one about `current` (its
  // set_aside event says it), and warns of each that failed.
  void report_escalations(const std::vector<HeldEscalations::Outcome>& outcomes,
                          const std::optional<mail::MessageId>& current);
  // Emits an `escalation_held` event for each recipient whose deliveries are still held.
  void report_held();
  // report_held(), then the end of a watch stopped by `sig`.
  WatchEnd stopped(int sig);
  // Calls `fn` until it succeeds or fails with an error that is not the store's (store_error,
  // timeout); in between, warns and sleeps with backoff. Gives up (returning the last error) at
  // `give_up_ms` from now (-1: never) or when a signal arrives.
  template <typename Fn>
  auto retrying(const char* what, Fn&& fn, mail::Millis give_up_ms = -1) -> decltype(fn());

  // Reports `event` (its JSON fields) and its one line of `text`.
  void emit(const nlohmann::json& event, const text::DisplayText& text);
  std::vector<std::pair<std::string, std::string>> environment_for(const mail::Message& message) const;

  Session& m_session;
  mail::Provider& m_provider;
  mail::Claims& m_claims; // m_provider's claims facet (ops::watch refuses a store without one)
  WatchSettings m_settings;
  util::InterruptWatch& m_interrupt;
  int m_stop_signal = 0; // SIGINT/SIGTERM once watch was asked to stop
  HeldEscalations m_escalations;
  WatchEmit m_emit;
};

} // namespace mailroom::ops
