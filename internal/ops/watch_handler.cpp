// One handler run of `watch` (watch_loop.hpp): the handler started as an argv in its own
// process group with the body on stdin and the message's environment, its lease renewed while it
// runs, stopped on a signal or when the lease is lost, and why it failed in one line.

#include <algorithm>
#include <chrono>
#include <csignal>

#include <unistd.h>

#include <fmt/format.h>

#include "mail/duration.hpp"
#include "mail/ids.hpp"
#include "mail/limits.hpp"
#include "mail/retry.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"
#include "util/child.hpp"
#include "watch_loop.hpp"

namespace mailroom::ops {

namespace {

// Reads a non-blocking descriptor until it has nothing more.
void drain(int fd)
{
  char buffer[64];
  while (::read(fd, buffer, sizeof buffer) > 0) {
  }
}

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// The most of a failed handler's stderr that a failure names.
constexpr std::size_t k_reason_stderr_bytes = 1024;

// How often watch looks whether the request its handler runs for was canceled: the contract's
// "within 1 s", with room for the look itself. One indexed read of the delivery.
constexpr milliseconds k_cancel_look{400};

} // namespace

// Why a handler run failed, in one line: its status and the last line of its stderr.
std::string Watcher::Ran::failure(mail::Millis timeout_ms) const
{
  std::string reason;
  if (result.timed_out) {
    reason = fmt::format("timed out after {} (process group killed)", mail::format_duration(timeout_ms));
  } else if (result.over_cap) {
    reason = fmt::format("output is larger than the body cap ({} bytes)", mail::k_max_body_bytes);
  } else {
    reason = result.describe_status();
  }
  std::string_view err = result.stderr_text;
  while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) {
    err.remove_suffix(1);
  }
  if (const auto newline = err.rfind('\n'); newline != std::string_view::npos) {
    err.remove_prefix(newline + 1);
  }
  if (!err.empty()) {
    reason += ": " + text::cap_bytes(err, k_reason_stderr_bytes);
  }
  return reason;
}

std::vector<std::pair<std::string, std::string>> Watcher::environment_for(const mail::Message& message) const
{
  // Environment strings end at a NUL byte; a subject cannot smuggle one in.
  const auto clean = [](std::string value) {
    value.erase(std::remove(value.begin(), value.end(), '\0'), value.end());
    return value;
  };
  std::vector<std::pair<std::string, std::string>> env = m_settings.env;
  env.emplace_back("MAILROOM_ID", message.id);
  env.emplace_back("MAILROOM_FROM", message.from);
  env.emplace_back("MAILROOM_SUBJECT", clean(message.subject));
  env.emplace_back("MAILROOM_TYPE", message.type);
  env.emplace_back("MAILROOM_THREAD", message.thread_id);
  env.emplace_back("MAILROOM_MAILBOX", m_settings.claim.mailbox);
  // A `mailroom` run by the handler acts as the watched mailbox and continues the message's trace.
  env.emplace_back("MAILROOM_IDENTITY", m_settings.claim.mailbox);
  env.emplace_back("TRACEPARENT", mail::format_traceparent(message.trace));
  return env;
}

bool Watcher::canceled_now(const mail::Claim& claim)
{
  return request_now(claim) == mail::RequestState::canceled;
}

Result<Watcher::Ran> Watcher::run_handler(const mail::Claim& claim)
{
  Ran ran;
  util::SubprocessOptions options;
  options.argv = m_settings.argv;
  options.extra_env = environment_for(claim.message);
  options.stdin_data = claim.message.body;
  options.stdout_cap = mail::k_max_body_bytes;
  auto spawned = util::Child::spawn(options);
  if (!spawned.ok()) {
    ran.result.exited = true;
    ran.result.exit_status = 127;
    ran.result.stderr_text = spawned.error().message;
    return ran;
  }
  util::Child child = std::move(spawned).value();
  // A request's sender may cancel it while the handler runs: watch looks at the delivery every
  // k_cancel_look. (Not on the store's change signal: on PostgreSQL that is this very connection,
  // which the loop below uses too, so it cannot be waited on beside the handler.)
  const bool request = claim.message.state && claim.message.state->request_state;
  const mail::Millis lease = m_settings.claim.lease_ms;
  const auto renew_every = milliseconds(std::max<mail::Millis>(lease / 3, 1));
  auto now = Clock::now();
  const auto handler_deadline = now + milliseconds(m_settings.handler_timeout_ms);
  auto next_renew = now + renew_every;
  auto lease_ends = now + milliseconds(lease);
  auto stop_deadline = Clock::time_point::max();
  auto next_look = request ? now + k_cancel_look : Clock::time_point::max();
  while (!child.ended()) {
    const auto until = std::min({handler_deadline, next_renew, stop_deadline, next_look});
    const util::Child::Event event = child.pump(until, m_interrupt.fd());
    if (event == util::Child::Event::ended) {
      break;
    }
    now = Clock::now();
    if (now >= next_look) {
      next_look = now + k_cancel_look;
      if (canceled_now(claim)) {
        // Withdrawn: stop the handler as watch stops it on a signal, after --cancel-grace.
        ran.canceled = true;
        next_look = Clock::time_point::max();
        child.signal_group(SIGTERM);
        stop_deadline = std::min(stop_deadline, now + milliseconds(m_settings.cancel_grace_ms));
      }
    }
    if (event == util::Child::Event::interrupted) {
      const int sig = m_interrupt.received();
      // The watch's descriptor stays readable once a signal came: empty it, so that only a second
      // signal wakes this pump again.
      drain(m_interrupt.fd());
      if (m_stop_signal == 0) {
        m_stop_signal = sig != 0 ? sig : SIGTERM;
        child.signal_group(SIGTERM); // finish or be killed after the grace
        stop_deadline = now + milliseconds(k_handler_stop_grace_ms);
      } else {
        child.signal_group(SIGKILL); // asked twice: stop now
      }
      continue;
    }
    if (now >= stop_deadline) {
      child.signal_group(SIGKILL);
      stop_deadline = Clock::time_point::max();
    }
    if (now >= handler_deadline) {
      child.kill_for_timeout();
      continue;
    }
    if (now >= next_renew) {
      auto renewed = m_claims.renew_claim(claim, lease);
      if (renewed.ok()) {
        lease_ends = now + milliseconds(lease);
        next_renew = now + renew_every;
      } else if (!mail::store_may_recover(renewed.error()) ||
                 now + milliseconds(mail::k_store_retry_first_ms) >= lease_ends) {
        // The lease is gone (taken over) or about to run out: someone else may run it now.
        ran.lost = true;
        ran.lost_reason =
            fmt::format("renewing the lease failed ({}); handler killed", renewed.error().message);
        child.signal_group(SIGKILL);
      } else {
        m_session.tell("lease_renewal_failed", fmt::format("renewing the lease on {}: {}; trying again",
                                                           claim.message.id, renewed.error().message));
        next_renew = now + milliseconds(mail::k_store_retry_first_ms);
      }
    }
  }
  ran.result = child.finish();
  return ran;
}

} // namespace mailroom::ops
