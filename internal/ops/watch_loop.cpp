#include "watch_loop.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>

#include <unistd.h>

#include <fmt/format.h>

#include "mail/duration.hpp"
#include "mail/ids.hpp"
#include "mail/limits.hpp"
#include "mail/retry.hpp"
#include "mail/waiting.hpp"
#include "presence.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"
#include "util/child.hpp"
#include "util/sleep.hpp"

namespace mailroom::ops {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

bool is_store_failure(const Error& error)
{
  return mail::store_may_recover(error);
}

// `raw` through the output gate as one line.
text::DisplayText line(std::string_view raw)
{
  return text::sanitize_line(raw);
}

} // namespace

Watcher::Watcher(Session& session, mail::Provider& provider, WatchSettings settings,
                 util::InterruptWatch& interrupt, WatchEmit emit)
    : m_session(session), m_provider(provider), m_claims(*provider.facets().claims),
      m_settings(std::move(settings)), m_interrupt(interrupt),
      m_escalations(m_settings.claim.mailbox, m_settings.argv, session.policy.redelivery),
      m_emit(std::move(emit))
{
}

template <typename Fn>
auto Watcher::retrying(const char* what, Fn&& fn, mail::Millis give_up_ms) -> decltype(fn())
{
  const auto give_up = give_up_ms < 0 ? Clock::time_point::max() : Clock::now() + milliseconds(give_up_ms);
  mail::Millis backoff = mail::k_store_retry_first_ms;
  while (true) {
    auto result = fn();
    if (result.ok() || !is_store_failure(result.error())) {
      return result;
    }
    const auto wake = Clock::now() + milliseconds(backoff);
    if (wake >= give_up) {
      return result;
    }
    m_session.tell("store_retry", fmt::format("{}: {}; trying again in {}", what, result.error().message,
                                              mail::format_duration(backoff)));
    if (!util::sleep_until(wake, m_interrupt.fd())) {
      return result; // asked to stop: the caller sees the signal
    }
    backoff = std::min(backoff * 2, mail::k_store_retry_max_ms);
  }
}

void Watcher::emit(const nlohmann::json& event, const text::DisplayText& text)
{
  if (m_emit) {
    m_emit(WatchEvent{event, text});
  }
}

Result<WatchEnd> Watcher::run()
{
  std::unique_ptr<mail::ChangeSignal> signal;
  TRY_ASSIGN(signal, retrying("arming the change signal", [&] { return mail::change_signal(m_provider); }));
  if (signal && !signal->degraded().empty()) {
    m_session.tell(mail::k_no_listen_warning, signal->degraded());
  }
  // An idle watcher stays seen (its start was recorded by the surface).
  mail::IdleHeartbeat beat;
  if (m_session.presence) {
    beat = mail::IdleHeartbeat([this]() { record_presence(m_session, 0); },
                               mail::heartbeat_interval(m_session.policy.presence_after), m_session.clock);
  }
  while (true) {
    if (const int sig = m_interrupt.received(); sig != 0 || m_stop_signal != 0) {
      return stopped(sig != 0 ? sig : m_stop_signal);
    }
    auto next = retrying("claiming the next message", [&] { return m_claims.claim_next(m_settings.claim); });
    if (!next.ok()) {
      if (const int sig = m_interrupt.received(); sig != 0) {
        return stopped(sig);
      }
      return std::move(next).error();
    }
    if (next->claim) {
      TRY_ASSIGN(const bool go_on, handle(*next->claim));
      if (!go_on) {
        return stopped(m_stop_signal);
      }
      continue;
    }
    if (next->set_aside) {
      set_aside(*next->set_aside, next->set_aside->attempts, std::string(mail::k_attempts_spent_reason));
      continue;
    }
    if (m_settings.once) {
      report_held();
      return WatchEnd{};
    }
    if (!m_escalations.empty()) {
      report_escalations(m_escalations.release(m_provider), std::nullopt); // one may be read now
    }
    // Nothing claimable now: sleep until the store changes, or until a retry time or another
    // watcher's lease comes due (that is no change in the store).
    auto until = Clock::time_point::max();
    if (next->wake_in_ms) {
      until = Clock::now() + milliseconds(*next->wake_in_ms);
    }
    beat.beat_if_due();
    until = beat.cap(until);
    if (signal) {
      auto woke = signal->wait(until, m_interrupt.fd());
      if (!woke.ok() && !is_store_failure(woke.error())) {
        return std::move(woke).error(); // the store was replaced under the watch
      }
      if (!woke.ok()) {
        m_session.tell("wait_failed", fmt::format("waiting for new mail: {}", woke.error().message));
        (void)util::sleep_until(Clock::now() + milliseconds(mail::k_store_retry_first_ms), m_interrupt.fd());
      }
    } else {
      (void)util::sleep_until(std::min(until, Clock::now() + milliseconds(mail::k_wait_poll_interval_ms)),
                              m_interrupt.fd());
    }
  }
}

Result<bool> Watcher::handle(const mail::Claim& claim)
{
  const mail::Message& m = claim.message;
  const std::int64_t attempt = claim.attempts + 1;
  emit({{"event", "claimed"},
        {"id", m.id},
        {"mailbox", claim.mailbox},
        {"from", text::json_text(m.from)},
        {"type", text::json_text(m.type)},
        {"attempt", attempt},
        {"max_attempts", m_settings.claim.max_attempts}},
       text::DisplayText::format("Claimed {} from {} ({}, attempt {} of {})", line(m.id), line(m.from),
                                 line(m.type), attempt, m_settings.claim.max_attempts));
  TRY_ASSIGN(Ran ran, run_handler(claim));
  if (ran.canceled) {
    TRY(settle_answered(claim, mail::RequestState::canceled, true));
    return m_stop_signal == 0;
  }
  if (ran.lost) {
    emit({{"event", "failed"},
          {"id", m.id},
          {"attempt", attempt},
          {"reason", ran.lost_reason},
          {"retry_in_ms", nullptr}},
         text::DisplayText::format("Failed {} (attempt {}): {}", line(m.id), attempt, line(ran.lost_reason)));
    return m_stop_signal == 0;
  }
  // A request the handler answered itself (mailroom decline/ask/fail/reply with MAILROOM_ID), or
  // its sender canceled after the handler ended: that stands, whatever the handler's status.
  const std::optional<mail::RequestState> now = request_now(claim);
  if (now) {
    TRY_ASSIGN(const bool settled, settle_answered(claim, *now, false));
    if (settled) {
      return m_stop_signal == 0;
    }
  }
  const bool answered = now == mail::RequestState::completed;
  if (ran.result.success() || answered) {
    TRY(succeed(claim, ran.result.stdout_text, answered));
  } else if (m_stop_signal != 0) {
    // Stopped by us, not failed: the claim goes back as if never taken.
    TRY(retrying("releasing the claim", [&] {
      return m_claims.finish_claim(claim, mail::ClaimFinish{mail::ClaimOutcome::released, 0, 0});
    }));
  } else {
    TRY(fail(claim, ran.failure(m_settings.handler_timeout_ms)));
  }
  return m_stop_signal == 0;
}

std::optional<mail::RequestState> Watcher::request_now(const mail::Claim& claim)
{
  if (!claim.message.state || !claim.message.state->request_state) {
    return std::nullopt; // no request: nothing a handler can answer but its reply
  }
  auto current = m_provider.get(claim.mailbox, claim.message.id);
  if (!current.ok() || !current->state) {
    return std::nullopt; // finishing the claim will say what is wrong with the store
  }
  return current->state->request_state;
}

Result<bool> Watcher::settle_answered(const mail::Claim& claim, mail::RequestState state, bool stopped)
{
  const mail::Message& m = claim.message;
  const std::int64_t attempt = claim.attempts + 1;
  nlohmann::json event = {{"id", m.id}, {"attempt", attempt}};
  text::DisplayText said;
  switch (state) {
  case mail::RequestState::rejected:
    event["event"] = "declined";
    said = text::DisplayText::format("Declined {} (the handler declined it); no reply sent", line(m.id));
    break;
  case mail::RequestState::failed:
    event["event"] = "failed";
    event["max_attempts"] = m_settings.claim.max_attempts;
    event["reason"] = "the handler reported failure (mailroom fail)";
    event["retry_in_ms"] = nullptr;
    said = text::DisplayText::format("Failed {} (attempt {}): the handler reported failure; not retried",
                                     line(m.id), attempt);
    break;
  case mail::RequestState::input_required:
    event["event"] = "asked";
    said =
        text::DisplayText::format("Asked {} about {}; taken again when answered", line(m.from), line(m.id));
    break;
  case mail::RequestState::canceled:
    event["event"] = "canceled";
    said = stopped
               ? text::DisplayText::format("Canceled {}: its sender withdrew it; handler stopped", line(m.id))
               : text::DisplayText::format("Canceled {}: its sender withdrew it; no reply sent", line(m.id));
    break;
  default:
    return false;
  }
  // The attempt is given back: the handler did not fail, the request ended (or waits).
  auto released = retrying("releasing the claim", [&] {
    return m_claims.finish_claim(claim, mail::ClaimFinish{mail::ClaimOutcome::released, 0, 0});
  });
  if (!released.ok() && released.error().code != ErrorCode::conflict) {
    return std::move(released).error();
  }
  emit(event, said);
  return true;
}

Result<void> Watcher::succeed(const mail::Claim& claim, const std::string& output, bool answered)
{
  const mail::Message& m = claim.message;
  const auto type = m_session.policy.types.resolve(m.type);
  const bool expects_reply = type.ok() && type->expects_reply && !answered;
  // Within the lease: past it the claim may be someone else's, and finishing would fail anyway.
  const mail::Millis in_lease = m_settings.claim.lease_ms / 2;
  std::string body = mail::watch_reply_body(output);
  if (expects_reply && !body.empty()) {
    mail::ReplyRequest request;
    request.seen_via = m_session.seen_via();
    request.from = claim.mailbox;
    request.id = m.id;
    request.body = std::move(body);
    auto replied = retrying(
        "sending the reply", [&] { return m_provider.reply(request); }, in_lease);
    if (!replied.ok()) {
      if (is_store_failure(replied.error())) {
        return std::move(replied).error(); // the claim runs out and the message is handled again
      }
      return fail(
          claim, fmt::format("the handler succeeded but its reply was refused: {}", replied.error().message));
    }
    emit({{"event", "replied"}, {"id", m.id}, {"reply_id", replied->message.id}, {"to", replied->recipients}},
         text::DisplayText::format("Replied to {} \u2014 sent message {} to {}", line(m.id),
                                   line(replied->message.id), line(text::join(replied->recipients))));
  }
  auto finished = retrying(
      "finishing the claim",
      [&] {
        return m_claims.finish_claim(claim, mail::ClaimFinish{mail::ClaimOutcome::done, 0, 0});
      },
      in_lease);
  if (!finished.ok()) {
    if (finished.error().code == ErrorCode::conflict) {
      emit({{"event", "failed"},
            {"id", m.id},
            {"attempt", claim.attempts + 1},
            {"reason", finished.error().message},
            {"retry_in_ms", nullptr}},
           text::DisplayText::format("Failed {}: {}", line(m.id), line(finished.error().message)));
      return {};
    }
    return std::move(finished).error();
  }
  emit({{"event", "done"}, {"id", m.id}, {"attempt", finished->attempts}},
       text::DisplayText::format("Done {}", line(m.id)));
  return {};
}

Result<void> Watcher::fail(const mail::Claim& claim, const std::string& reason)
{
  const mail::Message& m = claim.message;
  const std::int64_t attempt = claim.attempts + 1;
  const mail::Millis retry_after = mail::handler_retry_after(attempt);
  auto finished = retrying(
      "recording the failure",
      [&] {
        return m_claims.finish_claim(
            claim, mail::ClaimFinish{mail::ClaimOutcome::failed, retry_after, m_settings.claim.max_attempts});
      },
      m_settings.claim.lease_ms / 2);
  if (!finished.ok()) {
    if (finished.error().code == ErrorCode::conflict) {
      emit({{"event", "failed"},
            {"id", m.id},
            {"attempt", attempt},
            {"reason", text::json_text(reason)},
            {"retry_in_ms", nullptr}},
           text::DisplayText::format("Failed {} (attempt {}): {}", line(m.id), attempt, line(reason)));
      return {};
    }
    return std::move(finished).error();
  }
  nlohmann::json failed = {{"event", "failed"},
                           {"id", m.id},
                           {"attempt", finished->attempts},
                           {"max_attempts", m_settings.claim.max_attempts},
                           {"reason", text::json_text(reason)}};
  failed["retry_in_ms"] = finished->set_aside ? nlohmann::json(nullptr) : nlohmann::json(retry_after);
  emit(failed, text::DisplayText::format(
                   "Failed {} (attempt {} of {}): {}{}", line(m.id), finished->attempts,
                   m_settings.claim.max_attempts, line(reason),
                   finished->set_aside ? text::DisplayText()
                                       : text::DisplayText::format(
                                             "; retrying in {}", line(mail::format_duration(retry_after)))));
  if (!finished->set_aside) {
    return {};
  }
  set_aside(claim, finished->attempts, reason);
  return {};
}

} // namespace mailroom::ops
