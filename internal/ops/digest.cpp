#include "digest.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "mail/hook_order.hpp"

#include "text/sanitize.hpp"

namespace mailroom::ops {

Result<DigestResult> digest(Session& session, const std::vector<mail::MessageId>& taken)
{
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  // A limit of one message, no body: the store counts the hook's classes only when it lists, and
  // `owed` counts every delivery awaiting the mailbox's reply, urgent or not.
  TRY_ASSIGN(const mail::CheckResult found, provider->check(session.me.name, 1, 0));
  DigestResult result{found.unread, found.owed};
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
