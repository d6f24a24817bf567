#pragma once

// Which commands count as the agent doing something (contract "Presence is what the agent did"),
// decided here once. Reads that record presence: check (hook or not), inbox, count, sent and
// search of one's own mailbox, at most once a minute; wait and watch at start. Writes (send,
// reply, read, ack, archive, unarchive, delete, mark-*) record it in their own transaction, in the
// store. Views never do: team, peers, status, trace, thread, peek, agents, config, a view of
// another mailbox, with or without --as.

#include <optional>
#include <string_view>

#include "mail/team.hpp"

namespace mailroom::cli {

// The presence `command` records for the caller when it succeeds (check in hook mode narrows
// check to hook), or nullopt when it records none outside its own writes.
std::optional<mail::SeenVia> presence_source(std::string_view command);

// Whether the presence is recorded before the command runs (wait, watch: they may run for hours)
// rather than after it succeeded.
bool presence_at_start(mail::SeenVia via);

} // namespace mailroom::cli
