#include "mail/claims.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "mail/hook_order.hpp"
#include "text/strings.hpp"

namespace mailroom::mail {

namespace {

// The most of a handler's last failure (its stderr tail) an escalation quotes.
constexpr std::size_t k_reason_bytes = 4096;
// The most ids an escalation's subject lists (its body lists them all).
constexpr std::size_t k_subject_ids = 5;

} // namespace

std::string watch_reply_body(std::string_view output)
{
  while (!output.empty() && (output.back() == '\n' || output.back() == '\r')) {
    output.remove_suffix(1);
  }
  return std::string(output);
}

bool attempts_spent(std::int64_t attempts, std::int64_t max_attempts)
{
  return attempts >= max_attempts;
}

std::int64_t failed_handler_attempts(const DeliveryStatus& delivery)
{
  if (delivery.set_aside_at) {
    return delivery.handler_attempts;
  }
  const bool one_not_failed = delivery.claim.has_value() || delivery.read_at.has_value();
  return std::max<std::int64_t>(delivery.handler_attempts - (one_not_failed ? 1 : 0), 0);
}

Millis handler_retry_after(std::int64_t attempts)
{
  Millis wait = k_handler_retry_first_ms;
  for (std::int64_t i = 1; i < attempts && wait < k_handler_retry_max_ms; ++i) {
    wait *= 2;
  }
  return std::min(wait, k_handler_retry_max_ms);
}

std::optional<Mailbox> watch_escalation_recipient(const Message& message,
                                                  const RedeliverySchedule& redelivery)
{
  if (message.from == k_system_sender) {
    return std::nullopt;
  }
  return redelivery.escalate_to == "sender" ? message.from : redelivery.escalate_to;
}

std::string watch_pair_line(const Mailbox& mailbox, const std::vector<std::string>& argv)
{
  // The argv as a JSON array: one spelling for every argv, whatever its bytes.
  return fmt::format("Watch of {} with handler {}", mailbox,
                     nlohmann::json(argv).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

bool is_watch_escalation_for(const Message& message, std::string_view pair_line)
{
  return message.from == k_system_sender && message.type == "escalation" &&
         message.body.size() > pair_line.size() &&
         message.body.compare(0, pair_line.size(), pair_line) == 0 && message.body[pair_line.size()] == '\n';
}

SendRequest watch_escalation(const std::vector<SetAside>& set_aside, const Mailbox& mailbox,
                             const std::vector<std::string>& argv, const Mailbox& recipient)
{
  SendRequest request;
  request.from = std::string(k_system_sender);
  request.to = {recipient};
  request.type = "escalation";
  request.priority = default_priority(request.type);
  const SetAside& last = set_aside.back();
  // Ids and mailboxes are short (address.hpp), so the subject stays far below its cap.
  if (set_aside.size() == 1) {
    request.subject = fmt::format("watch gave up on {} for {} after {} attempt{}", last.message.id, mailbox,
                                  last.attempts, last.attempts == 1 ? "" : "s");
  } else {
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < set_aside.size() && i < k_subject_ids; ++i) {
      ids.push_back(set_aside[i].message.id);
    }
    request.subject = fmt::format("watch gave up on {} messages for {}: {}{}", set_aside.size(), mailbox,
                                  text::join(ids, ", "), set_aside.size() > k_subject_ids ? ", ..." : "");
  }
  std::string body = watch_pair_line(mailbox, argv) + "\n";
  body += fmt::format("The watch handler of mailbox {} set {} message{} aside:\n", mailbox, set_aside.size(),
                      set_aside.size() == 1 ? "" : "s");
  const std::size_t reason_bytes = k_reason_bytes / std::min<std::size_t>(set_aside.size(), 16);
  for (const SetAside& one : set_aside) {
    const Message& m = one.message;
    body += fmt::format("- {} from {} (type {}), {} attempt{}, subject: {}\n  Last failure: {}\n", m.id,
                        m.from, m.type, one.attempts, one.attempts == 1 ? "" : "s",
                        text::cap_for_echo(m.subject), text::cap_for_echo(one.reason, reason_bytes));
  }
  body += fmt::format("Run 'mailroom mark-unread --for {} ID' to let watch try one again.\n", mailbox);
  request.body = std::move(body);
  // The escalation continues the trace of the last message it is about.
  request.parent = TraceParent{last.message.trace.trace_id, last.message.trace.span_id, "01"};
  return request;
}

} // namespace mailroom::mail
