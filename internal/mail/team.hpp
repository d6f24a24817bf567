#pragma once

// The team as the operator sees it (contract "The team, as the operator sees it"): where presence
// came from, what owed, overdue and seen mean, and the one rule that gives each mailbox its state.
// The stores only count; the states and the order are decided here.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mail/duration.hpp"
#include "mail/message.hpp"
#include "mail/policy.hpp"

namespace mailroom::mail {

// What the agent did that recorded its presence (the `seen_via` column).
enum class SeenVia { hook, check, wait, watch, mcp, command, http };

std::string_view to_string(SeenVia via);
// "hook", "check", ...: the value, or nullopt for anything else (a newer mailroom's word).
std::optional<SeenVia> parse_seen_via(std::string_view text);

enum class TeamState { retired, not_acking, active, dark, idle };

std::string_view to_string(TeamState state);

// A delivery to the mailbox held by a watcher right now.
struct TeamClaim {
  MessageId id;
  std::string subject; // the claimed message's, so "what is X working on" names it
  Mailbox claimed_by;
  Millis lease_left_ms = 0;
};

// One mailbox's figures as a store counts them, and the state finish_team gives it.
struct TeamMember {
  Mailbox mailbox;
  TeamState state = TeamState::idle;
  std::optional<UnixMillis> last_seen_at;
  std::optional<SeenVia> seen_via;
  std::int64_t unread = 0;
  std::int64_t owed_count = 0;            // deliveries to it awaiting its ack, or escalated
  std::int64_t overdue_count = 0;         // of those, escalated or older than stale_after
  std::int64_t awaiting_others_count = 0; // its deliveries to others awaiting their ack
  std::vector<TeamClaim> claims;
  std::int64_t set_aside_count = 0; // deliveries to it a watcher set aside, still unread
  std::optional<UnixMillis> retired_at;
};

struct TeamResult {
  Millis presence_after_ms = k_default_presence_after_ms;
  Millis stale_after_ms = 0;
  std::vector<TeamMember>
      mailboxes; // retired last, then by state (dark, not_acking, active, idle), then by name
};

// A delivery created before this instant is overdue (older than stale_after at `now`).
UnixMillis overdue_before(UnixMillis now, Millis stale_after);

// Seen: last_seen_at within presence_after of now.
bool is_seen(std::optional<UnixMillis> last_seen_at, UnixMillis now, Millis presence_after);

// The state, first match wins: retired, not_acking (seen, owes an overdue delivery), active
// (seen), dark (not seen, owes an overdue delivery), idle.
TeamState team_state(const TeamMember& member, UnixMillis now, Millis presence_after);

// Gives each member its state and puts them in the contract's order.
TeamResult finish_team(std::vector<TeamMember> members, UnixMillis now, Millis presence_after,
                       Millis stale_after);

} // namespace mailroom::mail
