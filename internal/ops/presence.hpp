#pragma once

// Presence, for every surface (cmd/cli/app.cpp after a command, or at its start for wait and watch;
// the MCP server after a tool): what the agent did records its mailbox's last_seen (contract
// "Presence is what the agent did").

#include <cstdint>

#include "mail/limits.hpp"
#include "session.hpp"

namespace mailroom::ops {

// Records `session.presence` for the session's mailbox, at most once per `min_interval_ms`, never
// waiting for a lock; a hook's run (SeenVia::hook) also records the hook's last-run time, every
// time, for a mailbox with a wake target. Nothing when the session records none
// (a view, or a view of another mailbox, cleared it) or never opened the store. A failure is
// ignored: presence never fails an operation.
void record_presence(Session& session, std::int64_t min_interval_ms = mail::k_presence_interval_ms);

} // namespace mailroom::ops
