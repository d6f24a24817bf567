#pragma once

// Presence, for every surface (contract "Presence is what the agent did", "Three surfaces, one
// truth", and Round 4's "Surfaces"): whether an operation counts as the agent doing something is
// one table here (presence.cpp), and each surface records it with its own source: the CLI
// `command` (`check`, `wait`, `watch` name themselves), the MCP server `mcp`, `serve` `http`. The
// stores record only what they are told (mail::SendRequest::seen_via, mail::Actor::seen_via).

#include <cstdint>
#include <optional>
#include <string_view>

#include "mail/limits.hpp"
#include "mail/team.hpp"
#include "session.hpp"

namespace mailroom::ops {

// Where a call came in.
enum class Source { command, mcp, http };

// What an operation's row says:
//   none:  records nothing: team, peers, status, trace, thread, peek, agents, config, schedule
//          list, wake status, and every operation without a row;
//   read:  a read of one's own mail (check, inbox, count, sent, search): recorded once it
//          succeeded, at most once a minute, never waiting for a lock;
//   write: send, reply, read, ack, archive, unarchive, delete, mark-*, the request verbs,
//          schedule add and cancel: recorded in the write's own transaction when the store
//          writes one (Session::seen_via), and once it succeeded otherwise;
//   wait:  wait and watch: recorded when they start, and as a heartbeat while idle.
enum class PresenceKind { none, read, write, wait };

// The row of `operation`: a CLI command's name or an MCP tool's (`mark_read` is `mark-read`).
// `none` for a name without a row.
PresenceKind presence_kind(std::string_view operation);

// What `operation` records of its caller's presence when it comes through `source`, or nullopt
// when it records none: a `none` row anywhere; through the CLI `check`, `wait` or `watch` for
// those commands and `command` for the rest; `mcp` for every other MCP tool. Over HTTP the method
// decides (presence_of_request), not the operation: `http` for a row that records.
std::optional<mail::SeenVia> presence_of(std::string_view operation, Source source);

// `serve`'s row: a request other than GET (and HEAD, a GET without its body) is a write recorded
// as `http` for the acting mailbox; a GET records nothing, whatever it reads.
std::optional<mail::SeenVia> presence_of_request(std::string_view method);

// The kind a surface runs `session` as: what the table says of `operation`, or `none` when the
// session records no presence.
struct Presence {
  PresenceKind kind = PresenceKind::none;

  // Sets `session.presence` for a call of `operation` through `source`, and returns its kind.
  static Presence of(Session& session, std::string_view operation, Source source);
  // Sets `session.presence` for an HTTP request with `method` (a write, or nothing).
  static Presence of_request(Session& session, std::string_view method);

  // Before the operation runs: a wait or watch is seen when it starts (it may run for hours).
  void before(Session& session) const;
  // Once it succeeded: a read or a write records the presence, at most once a minute (a write
  // whose transaction recorded it finds it fresh and writes nothing). Nothing when the operation
  // cleared `session.presence` (a view of another mailbox).
  void after(Session& session) const;
};

// Records `session.presence` for the session's mailbox, at most once per `min_interval_ms`, never
// waiting for a lock; a hook's run (SeenVia::hook) also records the hook's last-run time, every
// time, for a mailbox with a wake target. Nothing when the session records none
// (a view, or a view of another mailbox, cleared it) or never opened the store. A failure is
// ignored: presence never fails an operation.
void record_presence(Session& session, std::int64_t min_interval_ms = mail::k_presence_interval_ms);

} // namespace mailroom::ops
