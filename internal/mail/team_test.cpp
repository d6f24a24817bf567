#include "mail/team.hpp"

#include <doctest/doctest.h>

using namespace mailroom::mail;

namespace {

constexpr UnixMillis k_now = 1'800'000'000'000;
constexpr Millis k_presence = 30 * k_minute_ms;

TeamMember member(const char* name, std::optional<UnixMillis> seen, std::int64_t overdue,
                  bool retired = false)
{
  TeamMember m;
  m.mailbox = name;
  m.last_seen_at = seen;
  m.overdue_count = overdue;
  m.owed_count = overdue;
  if (retired) {
    m.retired_at = k_now - k_day_ms;
  }
  return m;
}

} // namespace

TEST_CASE("team_state: first match wins")
{
  CHECK(team_state(member("a", k_now, 1, true), k_now, k_presence) == TeamState::retired);
  CHECK(team_state(member("a", k_now, 1), k_now, k_presence) == TeamState::not_acking);
  CHECK(team_state(member("a", k_now, 0), k_now, k_presence) == TeamState::active);
  CHECK(team_state(member("a", std::nullopt, 1), k_now, k_presence) == TeamState::dark);
  CHECK(team_state(member("a", k_now - k_presence - 1, 2), k_now, k_presence) == TeamState::dark);
  CHECK(team_state(member("a", std::nullopt, 0), k_now, k_presence) == TeamState::idle);
  // Seen means within presence_after, inclusive.
  CHECK(team_state(member("a", k_now - k_presence, 0), k_now, k_presence) == TeamState::active);
  CHECK(team_state(member("a", k_now - k_presence - 1, 0), k_now, k_presence) == TeamState::idle);
  // Owed but not overdue is not dark.
  TeamMember owed = member("a", std::nullopt, 0);
  owed.owed_count = 3;
  CHECK(team_state(owed, k_now, k_presence) == TeamState::idle);
}

TEST_CASE("finish_team: retired last, then dark, not_acking, active, idle, then by name")
{
  const TeamResult result = finish_team({member("z-idle", std::nullopt, 0), member("a-gone", k_now, 1, true),
                                         member("b-active", k_now, 0), member("c-dark", std::nullopt, 1),
                                         member("a-active", k_now, 0), member("d-stuck", k_now, 1)},
                                        k_now, k_presence, 10 * k_minute_ms);
  std::vector<std::string> names;
  for (const TeamMember& m : result.mailboxes) {
    names.push_back(m.mailbox);
  }
  CHECK(names == std::vector<std::string>{"c-dark", "d-stuck", "a-active", "b-active", "z-idle", "a-gone"});
  CHECK(result.presence_after_ms == k_presence);
  CHECK(result.stale_after_ms == 10 * k_minute_ms);
}

TEST_CASE("seen_via: every word round-trips; an unknown one is none")
{
  for (SeenVia via :
       {SeenVia::hook, SeenVia::check, SeenVia::wait, SeenVia::watch, SeenVia::mcp, SeenVia::command}) {
    CHECK(parse_seen_via(to_string(via)) == std::optional<SeenVia>(via));
  }
  CHECK(parse_seen_via("telepathy") == std::nullopt);
  CHECK(overdue_before(k_now, k_minute_ms) == k_now - k_minute_ms);
}
