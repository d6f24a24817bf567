#pragma once

// The hook's order (contract "Three surfaces, one truth" and its decisions after review): what
// `check --inject` and the hook formats list, unread mail only, in three classes:
//   1. urgent mail and escalations (priority urgent, or type `escalation`), in inbox order;
//   2. the deliveries awaiting the mailbox's reply (owed: is_owed in request.hpp, the rule
//      `inbox --awaiting` keeps), oldest first;
//   3. the rest, in inbox order.
// A message of class 1 or 2 that awaits a reply is marked `[reply expected]` in the reminder, so
// an urgent request reads `[urgent] [reply expected]`. The stores list in this order in SQL
// (MR_SQL_HOOK_CLASS and MR_SQL_HOOK_ORDER, providers/sqlstore/sql_rules.hpp, the same rule);
// a store that lists in C++ (exec) sorts with sort_for_hook.

#include <cstdint>
#include <vector>

#include "mail/message.hpp"
#include "mail/views.hpp"

namespace mailroom::mail {

enum class HookClass : std::uint8_t { urgent = 0, awaiting = 1, rest = 2 };

// Urgent or an escalation: listed first.
bool leads_hook(const Message& message);
// The viewer's delivery is owed (request.hpp is_owed on its state); false without a delivery.
bool awaits_reply(const Message& message);
HookClass hook_class(const Message& message);
// The hook's order: by class; within a class, inbox order (inbox_before) except for the awaiting
// class, oldest first. Ties keep the caller's order (sort_for_hook is stable).
bool hook_before(const Message& a, const Message& b);
void sort_for_hook(std::vector<Message>& messages);
// CheckResult's counts of `unread`, every unread message: `unread`, `urgent` (the first class:
// urgent mail and escalations) and `awaiting` (the second: owed, not urgent).
void count_hook_classes(const std::vector<Message>& unread, CheckResult& result);
// The message the reminder's last line names (`mailroom reply <id> …`): the first listed one that
// awaits a reply, else the first listed; null when nothing is listed.
const Message* message_to_answer(const std::vector<Message>& listed);

} // namespace mailroom::mail
