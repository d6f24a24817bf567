#include "send_options.hpp"

#include <fmt/format.h>

#include "errors.hpp"
#include "mail/hook_order.hpp"
#include "mail/limits.hpp"

namespace mailroom::ops {

Result<mail::Priority> resolve_priority(const Sending& sending)
{
  mail::Priority priority =
      sending.urgent ? mail::Priority::urgent : mail::default_priority(sending.type.value_or("message"));
  if (sending.priority) {
    const auto parsed = mail::parse_priority(*sending.priority);
    if (!parsed) {
      return usage_error(fmt::format("invalid priority \"{}\"", *sending.priority),
                         "use urgent, high, normal, low, backlog or 0-4");
    }
    if (sending.urgent && *parsed != mail::Priority::urgent) {
      return usage_error(fmt::format("--urgent conflicts with --priority \"{}\"", *sending.priority));
    }
    priority = *parsed;
  }
  return priority;
}

Result<std::optional<std::string>> resolve_idempotency_key(const Session& session,
                                                           const std::optional<std::string>& flag)
{
  const std::optional<std::string> key = flag ? flag : session.env.get("MAILROOM_IDEMPOTENCY_KEY");
  if (!key || key->empty()) {
    return std::optional<std::string>{};
  }
  if (key->size() > mail::k_max_idempotency_key_bytes) {
    return usage_error(fmt::format("idempotency key is {} bytes; the limit is {}", key->size(),
                                   mail::k_max_idempotency_key_bytes));
  }
  return key;
}

Result<void> refuse_empty_message(const std::optional<std::string>& subject, const std::string& body)
{
  if ((!subject || subject->empty()) && body.empty()) {
    return usage_error("the message is empty: no subject and no body", "give a body, a subject, or both");
  }
  return {};
}

} // namespace mailroom::ops
