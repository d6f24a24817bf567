#pragma once

// Who may see a message and what state it shows, and the thread order the exec provider sorts
// script output into (scripts may print lists in any order; inbox order is mail::sort_inbox).

#include <optional>
#include <vector>

#include "exec/wire.hpp"
#include "mail/message.hpp"

namespace mailroom::providers::exec {

// True when `mailbox` sent `m` or is in its to or cc.
bool is_party(const mail::Message& m, const mail::Mailbox& mailbox);

// True when `mailbox` is in the to or cc of `m` (has a read state to change).
bool is_recipient(const mail::Message& m, const mail::Mailbox& mailbox);

// `wire` as `viewer` sees it. Only a recipient has a state, and only when its read flag is known:
// reported by the script, or `read_if_unreported` (what the op implies: false for an inbox or a
// fresh send). Otherwise the state is unknown (nullopt), never guessed. An unreported `archived`
// is false (gc scripts never report it; the ops that change it are always run).
mail::Message as_seen_by(WireMessage wire, const mail::Mailbox& viewer,
                         std::optional<bool> read_if_unreported);

// Thread order: oldest first, then id. Stable.
void sort_thread(std::vector<mail::Message>& messages);

} // namespace mailroom::providers::exec
