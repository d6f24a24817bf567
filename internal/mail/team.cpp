#include "mail/team.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace mailroom::mail {

namespace {

constexpr std::array<std::pair<SeenVia, std::string_view>, 7> k_seen_via = {{
    {SeenVia::hook, "hook"},
    {SeenVia::check, "check"},
    {SeenVia::wait, "wait"},
    {SeenVia::watch, "watch"},
    {SeenVia::mcp, "mcp"},
    {SeenVia::command, "command"},
    {SeenVia::http, "http"},
}};

// Position in the listing: dark first, retired last.
int rank(TeamState state)
{
  switch (state) {
  case TeamState::dark:
    return 0;
  case TeamState::not_acking:
    return 1;
  case TeamState::active:
    return 2;
  case TeamState::idle:
    return 3;
  case TeamState::retired:
    return 4;
  }
  return 5;
}

} // namespace

std::string_view to_string(SeenVia via)
{
  for (const auto& [value, name] : k_seen_via) {
    if (value == via) {
      return name;
    }
  }
  return "command";
}

std::optional<SeenVia> parse_seen_via(std::string_view text)
{
  for (const auto& [value, name] : k_seen_via) {
    if (name == text) {
      return value;
    }
  }
  return std::nullopt;
}

std::string_view to_string(TeamState state)
{
  switch (state) {
  case TeamState::retired:
    return "retired";
  case TeamState::not_acking:
    return "not_acking";
  case TeamState::active:
    return "active";
  case TeamState::dark:
    return "dark";
  case TeamState::idle:
    return "idle";
  }
  return "idle";
}

UnixMillis overdue_before(UnixMillis now, Millis stale_after)
{
  return now - stale_after;
}

bool is_seen(std::optional<UnixMillis> last_seen_at, UnixMillis now, Millis presence_after)
{
  return last_seen_at && *last_seen_at >= now - presence_after;
}

TeamState team_state(const TeamMember& member, UnixMillis now, Millis presence_after)
{
  const bool seen = is_seen(member.last_seen_at, now, presence_after);
  const bool overdue = member.overdue_count > 0;
  if (member.retired_at) {
    return TeamState::retired;
  }
  if (seen && overdue) {
    return TeamState::not_acking;
  }
  if (seen) {
    return TeamState::active;
  }
  if (overdue) {
    return TeamState::dark;
  }
  return TeamState::idle;
}

TeamResult finish_team(std::vector<TeamMember> members, UnixMillis now, Millis presence_after,
                       Millis stale_after)
{
  for (TeamMember& member : members) {
    member.state = team_state(member, now, presence_after);
  }
  std::sort(members.begin(), members.end(), [](const TeamMember& a, const TeamMember& b) {
    if (rank(a.state) != rank(b.state)) {
      return rank(a.state) < rank(b.state);
    }
    return a.mailbox < b.mailbox;
  });
  TeamResult result;
  result.presence_after_ms = presence_after;
  result.stale_after_ms = stale_after;
  result.mailboxes = std::move(members);
  return result;
}

} // namespace mailroom::mail
