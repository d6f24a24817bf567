#pragma once

// Who may see a message, and the orders the exec provider sorts script output into (scripts may
// print lists in any order).

#include <vector>

#include "mail/message.hpp"

namespace mailroom::providers::exec {

// True when `mailbox` sent `m` or is in its to or cc.
bool is_party(const mail::Message& m, const mail::Mailbox& mailbox);

// True when `mailbox` is in the to or cc of `m` (has a read state to change).
bool is_recipient(const mail::Message& m, const mail::Mailbox& mailbox);

// Inbox order (provider.hpp): urgent first, then oldest, then id. Stable.
void sort_inbox(std::vector<mail::Message>& messages);

// Thread order: oldest first, then id. Stable.
void sort_thread(std::vector<mail::Message>& messages);

} // namespace mailroom::providers::exec
