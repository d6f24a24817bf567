// The event stream's text: SSE framing, the reset, where a stream starts, the peer.state period
// and the changes it reports.

#include <algorithm>

#include <doctest/doctest.h>

#include "http/sse.hpp"

namespace mailroom::http {

TEST_CASE("sse: an event is id, event and one data line, then a blank line")
{
  const nlohmann::json data{
      {"seq", 7}, {"type", "mail.sent"}, {"id", "mr-1"}, {"mailbox", "bob"}, {"body", "a\nb"}};
  const std::string text = sse_event(7, "mail.sent", data);
  CHECK(text.starts_with("id: 7\nevent: mail.sent\ndata: {"));
  CHECK(text.ends_with("}\n\n"));
  // A newline inside a value stays escaped: one data line, so it cannot forge a field.
  CHECK(std::count(text.begin(), text.end(), '\n') == 4);
  CHECK(sse_reset(42) == "event: reset\ndata: {\"oldest_kept\":42}\n\n");
  CHECK(sse_heartbeat().starts_with(":"));
}

TEST_CASE("sse: a stream starts after Last-Event-ID, else ?after=, else from now on")
{
  auto header = stream_after(std::string("12"), std::string("5"));
  REQUIRE(header.ok());
  CHECK(*header == std::optional<std::int64_t>(12));
  auto query = stream_after(std::nullopt, std::string("5"));
  REQUIRE(query.ok());
  CHECK(*query == std::optional<std::int64_t>(5));
  auto now = stream_after(std::nullopt, std::nullopt);
  REQUIRE(now.ok());
  CHECK_FALSE(now->has_value());
  for (const char* bad : {"", "-1", "x", "12x", "99999999999999999999999"}) {
    CAPTURE(bad);
    auto parsed = stream_after(std::string(bad), std::nullopt);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.error().code == ErrorCode::usage);
  }
}

TEST_CASE("sse: peer.state every presence_after / 10, between 100 ms and 10 s")
{
  CHECK(peer_state_period(30 * 60 * 1000) == 10 * 1000);
  CHECK(peer_state_period(60 * 1000) == 6 * 1000);
  CHECK(peer_state_period(10) == 100);
}

TEST_CASE("sse: peer.state reports the mailboxes whose state changed, none on the first look")
{
  const auto member = [](const char* name, mail::TeamState state) {
    mail::TeamMember m;
    m.mailbox = name;
    m.state = state;
    return m;
  };
  PeerStates states;
  CHECK(states.update({member("alice", mail::TeamState::active), member("bob", mail::TeamState::idle)})
            .empty());
  CHECK(states.update({member("alice", mail::TeamState::active), member("bob", mail::TeamState::idle)})
            .empty());
  const auto changes =
      states.update({member("alice", mail::TeamState::dark), member("bob", mail::TeamState::idle),
                     member("carol", mail::TeamState::active)});
  REQUIRE(changes.size() == 2);
  CHECK(changes[0].mailbox == "alice");
  CHECK(changes[0].state == mail::TeamState::dark);
  CHECK(changes[0].previous == mail::TeamState::active);
  CHECK(changes[1].mailbox == "carol");
  CHECK_FALSE(changes[1].previous.has_value());
  const std::string text = sse_peer_state(changes[0], 1000);
  CHECK(text.starts_with("event: peer.state\ndata: {"));
  CHECK(text.find("\"state\":\"dark\"") != std::string::npos);
  CHECK(text.find("\"previous\":\"active\"") != std::string::npos);
  CHECK(text.find("id: ") == std::string::npos);
}

} // namespace mailroom::http
