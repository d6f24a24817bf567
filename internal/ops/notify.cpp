#include "notify.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "mail/ids.hpp"
#include "text/strings.hpp"
#include "util/child.hpp"
#include "util/subprocess.hpp"

namespace mailroom::ops {

std::vector<std::string> expand_notify_argv(const std::vector<std::string>& argv,
                                            const mail::SendReceipt& receipt)
{
  std::vector<std::string> out;
  const std::string to = text::join(receipt.recipients, ",");
  for (const std::string& arg : argv) {
    // One left-to-right scan, so a subject that itself contains "{id}" is never expanded again.
    std::string expanded;
    for (std::size_t i = 0; i < arg.size();) {
      bool matched = false;
      for (const auto& [key, value] : {std::pair<std::string_view, std::string_view>{"{to}", to},
                                       {"{from}", receipt.message.from},
                                       {"{id}", receipt.message.id},
                                       {"{subject}", receipt.message.subject}}) {
        if (arg.compare(i, key.size(), key) == 0) {
          expanded += value;
          i += key.size();
          matched = true;
          break;
        }
      }
      if (!matched) {
        expanded += arg[i];
        ++i;
      }
    }
    out.push_back(std::move(expanded));
  }
  return out;
}

namespace {

constexpr std::size_t k_notify_parallel = 8;             // per-recipient runs at once
constexpr std::chrono::milliseconds k_notify_wait{2000}; // how long a send waits for them

bool names_each_recipient(const std::vector<std::string>& argv)
{
  return std::any_of(argv.begin(), argv.end(),
                     [](const std::string& arg) { return arg.find("{to}") != std::string::npos; });
}

void report(const Session& session, const std::string& program, const util::SubprocessResult& result)
{
  if (result.timed_out) {
    session.tell("notify_failed", fmt::format("notify command \"{}\" was still running after {} ms; stopped",
                                              program, k_notify_wait.count()));
  } else if (!result.success()) {
    session.tell("notify_failed",
                 fmt::format("notify command \"{}\" failed: {}", program, result.describe_status()));
  }
}

// With {to} in the argv and several recipients: one run per recipient ({to} is that one), at most
// k_notify_parallel at a time, all within k_notify_wait; runs still going then are stopped.
void notify_each(const Session& session, const mail::SendReceipt& receipt)
{
  const auto deadline = util::Child::Clock::now() + k_notify_wait;
  std::size_t next = 0;
  while (next < receipt.recipients.size()) {
    std::vector<std::pair<std::string, util::Child>> running;
    for (; next < receipt.recipients.size() && running.size() < k_notify_parallel; ++next) {
      mail::SendReceipt one = receipt;
      one.recipients = {receipt.recipients[next]};
      util::SubprocessOptions options;
      options.argv = expand_notify_argv(session.config.notify_command.value, one);
      options.extra_env.emplace_back("TRACEPARENT", mail::format_traceparent(receipt.message.trace));
      auto child = util::Child::spawn(options);
      if (!child.ok()) {
        session.tell("notify_failed",
                     fmt::format("notify command \"{}\": {}", options.argv.front(), child.error().message));
        continue;
      }
      running.emplace_back(options.argv.front(), std::move(child).value());
    }
    for (auto& [program, child] : running) {
      if (child.pump(deadline) != util::Child::Event::ended) {
        child.kill_for_timeout();
      }
      report(session, program, child.finish());
    }
  }
}

} // namespace

void notify_recipients(const Session& session, const mail::SendReceipt& receipt)
{
  if (session.config.notify_command.value.empty()) {
    session.tell("no_notify_command", "no notify command configured");
    return;
  }
  if (receipt.recipients.size() > 1 && names_each_recipient(session.config.notify_command.value)) {
    notify_each(session, receipt);
    return;
  }
  util::SubprocessOptions options;
  options.argv = expand_notify_argv(session.config.notify_command.value, receipt);
  options.timeout = std::chrono::milliseconds(session.config.exec_timeout_ms.value);
  // Work the notified side starts continues the message's trace (contract "Traces").
  options.extra_env.emplace_back("TRACEPARENT", mail::format_traceparent(receipt.message.trace));
  auto result = util::run_subprocess(options);
  if (!result.ok()) {
    session.tell("notify_failed",
                 fmt::format("notify command \"{}\": {}", options.argv.front(), result.error().message));
  } else if (!result->success()) {
    session.tell("notify_failed", fmt::format("notify command \"{}\" failed: {}", options.argv.front(),
                                              result->describe_status()));
  }
}

void notify_redelivery(const Session& session, const mail::Redelivery& redelivery)
{
  if (session.config.notify_command.value.empty()) {
    return; // redelivery itself is the signal; a notify command is optional
  }
  mail::SendReceipt receipt;
  receipt.message.id = redelivery.id;
  receipt.message.from = redelivery.sender;
  receipt.message.subject = redelivery.subject;
  receipt.recipients = {redelivery.recipient};
  notify_recipients(session, receipt);
}

void notify_fired(const Session& session, const mail::FireReport& report)
{
  if (report.dry_run) {
    return;
  }
  for (const mail::Fired& fired : report.fired) {
    if (!fired.notify || fired.recipients.empty()) {
      continue;
    }
    for (const mail::Firing& row : fired.rows) {
      if (row.message_id) {
        mail::SendReceipt receipt;
        receipt.message.id = *row.message_id;
        receipt.message.from = fired.from;
        receipt.message.subject = fired.subject;
        receipt.message.to = fired.recipients;
        receipt.recipients = fired.recipients;
        notify_recipients(session, receipt);
      }
    }
  }
}

} // namespace mailroom::ops
