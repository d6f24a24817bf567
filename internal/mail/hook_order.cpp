#include "mail/hook_order.hpp"

#include <algorithm>

#include "mail/request.hpp"

namespace mailroom::mail {

Priority default_priority(std::string_view type)
{
  return type == "escalation" ? Priority::urgent : Priority::normal;
}

bool leads_hook(const Message& message)
{
  return message.priority == Priority::urgent;
}

bool awaits_reply(const Message& message)
{
  return message.state && is_owed(message.state->request_state, message.state->ack_state);
}

HookClass hook_class(const Message& message)
{
  if (leads_hook(message)) {
    return HookClass::urgent;
  }
  return awaits_reply(message) ? HookClass::awaiting : HookClass::rest;
}

bool hook_before(const Message& a, const Message& b)
{
  const HookClass ca = hook_class(a);
  const HookClass cb = hook_class(b);
  if (ca != cb) {
    return ca < cb;
  }
  if (ca == HookClass::awaiting) {
    return a.created_at < b.created_at;
  }
  return inbox_before(a, b);
}

void sort_for_hook(std::vector<Message>& messages)
{
  std::stable_sort(messages.begin(), messages.end(), hook_before);
}

void count_hook_classes(const std::vector<Message>& unread, CheckResult& result)
{
  result.unread = static_cast<std::int64_t>(unread.size());
  result.urgent = 0;
  result.awaiting = 0;
  result.owed = 0;
  for (const Message& m : unread) {
    const HookClass c = hook_class(m);
    result.urgent += c == HookClass::urgent ? 1 : 0;
    result.awaiting += c == HookClass::awaiting ? 1 : 0;
    result.owed += awaits_reply(m) ? 1 : 0;
  }
}

const Message* message_to_answer(const std::vector<Message>& listed)
{
  if (listed.empty()) {
    return nullptr;
  }
  const auto owed = std::find_if(listed.begin(), listed.end(), awaits_reply);
  return owed != listed.end() ? &*owed : &listed.front();
}

} // namespace mailroom::mail
