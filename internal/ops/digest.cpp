#include "digest.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "mail/hook_order.hpp"

#include "text/sanitize.hpp"

namespace mailroom::ops {

Result<DigestResult> digest(Session& session, const std::vector<mail::MessageId>& taken)
{
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  // A limit of one message, no body: the store counts the hook's classes only when it lists. The
  // owed deliveries are the second class, and those of the first (urgent mail and escalations,
  // listed first) that await a reply: read only when there is urgent mail.
  TRY_ASSIGN(const mail::CheckResult found, provider->check(session.me.name, 1, 0));
  DigestResult result{found.unread, found.awaiting};
  if (found.urgent > 0) {
    const std::size_t first = static_cast<std::size_t>(found.urgent);
    TRY_ASSIGN(const mail::CheckResult urgent, provider->check(session.me.name, first, 0));
    for (std::size_t i = 0; i < std::min(first, urgent.messages.size()); ++i) {
      result.awaiting += mail::awaits_reply(urgent.messages[i]) ? 1 : 0;
    }
  }
  for (const mail::MessageId& id : taken) {
    TRY_ASSIGN(const mail::Message message, provider->get(session.me.name, id));
    if (message.state && !message.state->read && !message.state->archived) {
      result.unread = std::max<std::int64_t>(result.unread - 1, 0);
      if (mail::awaits_reply(message)) {
        result.awaiting = std::max<std::int64_t>(result.awaiting - 1, 0);
      }
    }
  }
  return result;
}

std::optional<std::string> digest_line(const DigestResult& result)
{
  if (result.unread <= 0) {
    return std::nullopt;
  }
  std::string line = fmt::format("mailroom: {} unread", result.unread);
  if (result.awaiting > 0) {
    line += result.awaiting == 1 ? std::string(" (1 request awaits your reply)")
                                 : fmt::format(" ({} requests await your reply)", result.awaiting);
  }
  return std::string(text::sanitize_line(line).view());
}

} // namespace mailroom::ops
