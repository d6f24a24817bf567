#pragma once

// The hook's order (contract "Three surfaces, one truth" and its decisions after review): what
// `check --inject` and the hook formats list, unread mail only, in three classes:
//   1. urgent mail, in inbox order: escalations among it, as an escalation is urgent unless its
//      sender names another priority (ops/send_options.cpp, and every escalation mailroom sends);
//   2. the deliveries awaiting the mailbox's reply (owed: is_owed in request.hpp, the rule
//      `inbox --awaiting` keeps), oldest first;
//   3. the rest, in inbox order.
// A message of class 1 or 2 that awaits a reply is marked `[reply expected]` in the reminder, so
// an urgent request reads `[urgent] [reply expected]`. Every store orders with sort_for_hook: the
// SQL stores sort the few candidates their indexes give (the head of inbox order and the oldest
// owed deliveries), the exec provider the whole unread list its script gives.

#include <cstdint>
#include <string_view>
#include <vector>

#include "mail/message.hpp"
#include "mail/views.hpp"

namespace mailroom::mail {

enum class HookClass : std::uint8_t { urgent = 0, awaiting = 1, rest = 2 };

// The priority a message of `type` gets when its sender names none: urgent for an escalation (so
// the hook lists it first and it may wake an idle agent, mail/wake.hpp), else normal.
Priority default_priority(std::string_view type);
// Urgent: listed first.
bool leads_hook(const Message& message);
// The viewer's delivery is owed (request.hpp is_owed on its state); false without a delivery.
bool awaits_reply(const Message& message);
HookClass hook_class(const Message& message);
// The hook's order: by class; within a class, inbox order (inbox_before) except for the awaiting
// class, oldest first. Ties keep the caller's order (sort_for_hook is stable).
bool hook_before(const Message& a, const Message& b);
void sort_for_hook(std::vector<Message>& messages);
// CheckResult's counts of `unread`, every unread message: `unread`, `urgent` (the first class),
// `awaiting` (the second: owed, not urgent) and `owed` (every owed one, urgent or not).
void count_hook_classes(const std::vector<Message>& unread, CheckResult& result);
// The message the reminder's last line names (`mailroom reply <id> …`): the first listed one that
// awaits a reply, else the first listed; null when nothing is listed.
const Message* message_to_answer(const std::vector<Message>& listed);

} // namespace mailroom::mail
