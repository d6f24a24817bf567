#include "mail/claims.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "text/strings.hpp"

namespace mailroom::mail {

namespace {

// The most of a handler's last failure (its stderr tail) an escalation quotes.
constexpr std::size_t k_reason_bytes = 4096;

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

std::optional<SendRequest> watch_escalation(const Message& message, const Mailbox& mailbox,
                                            std::int64_t attempts, const std::string& reason,
                                            const RedeliverySchedule& redelivery)
{
  if (message.from == k_system_sender) {
    return std::nullopt;
  }
  SendRequest request;
  request.from = std::string(k_system_sender);
  request.to = {redelivery.escalate_to == "sender" ? message.from : redelivery.escalate_to};
  request.type = "escalation";
  request.priority = Priority::high;
  // Ids and mailboxes are short (address.hpp), so the subject stays far below its cap.
  request.subject = fmt::format("watch gave up on {} for {} after {} attempt{}", message.id, mailbox,
                                attempts, attempts == 1 ? "" : "s");
  request.body = fmt::format(
      "The watch handler of mailbox {} failed {} time{} on message {} and set it aside.\n"
      "Message: {} from {} (type {}), subject: {}\n"
      "Last failure: {}\n"
      "Run 'mailroom --as {} mark-unread {}' to let watch try it again.\n",
      mailbox, attempts, attempts == 1 ? "" : "s", message.id, message.id, message.from, message.type,
      text::cap_for_echo(message.subject), text::cap_for_echo(reason, k_reason_bytes), mailbox, message.id);
  // The escalation continues the trace of the message it is about.
  request.parent = TraceParent{message.trace.trace_id, message.trace.span_id, "01"};
  return request;
}

} // namespace mailroom::mail
