// Presence as a property of each operation (contract "Three surfaces, one truth"): the one table
// of ops/presence.cpp, and what a session set up from it records, run on a real bead store.

#include <doctest/doctest.h>

#include "beads/bead_store.hpp"
#include "ops/inbox.hpp"
#include "ops/presence.hpp"
#include "ops/send.hpp"
#include "ops/views.hpp"
#include "testing/fixed_clock.hpp"
#include "testing/reach.hpp"
#include "util/environment.hpp"

namespace mailroom::ops {

namespace {

using mail::SeenVia;

struct PresenceWorld {
  testing::FixedClock clock;
  std::unique_ptr<mail::Provider> store;
  config::Config config;
  mail::MailPolicy policy;
  util::MapEnvironment env{{}, "/"};
  config::Identity me{"alice", config::default_origin()};
  ProviderSlot slot{[this]() -> Result<mail::Provider*> { return store.get(); }};
  Session session{config, policy, clock, me, env, slot};

  PresenceWorld()
  {
    mail::StoreSettings settings;
    settings.path = ":memory:";
    auto made = providers::beads::open_bead_store(settings, policy, clock);
    REQUIRE(made.ok());
    store = std::move(made).value();
    REQUIRE(mailroom::testing::reach(*store).add_agents({"alice", "bob"}).ok());
  }

  // alice's seen_via as `team` shows it.
  std::optional<SeenVia> seen_via()
  {
    auto team = mailroom::testing::reach(*store).team();
    REQUIRE(team.ok());
    for (const mail::TeamMember& member : team->mailboxes) {
      if (member.mailbox == "alice") {
        return member.seen_via;
      }
    }
    FAIL("alice is not on the team");
    return std::nullopt;
  }

  Result<SendResult> send_bob()
  {
    SendRequest request;
    request.to = {"bob"};
    request.body = "hello";
    return send(session, request);
  }
};

} // namespace

TEST_CASE("the presence table: writes, throttled reads, waits, and operations that never record it")
{
  for (const char* write :
       {"send", "reply", "read", "ack", "archive", "unarchive", "delete", "mark-read", "mark-unread",
        "cancel", "decline", "ask", "fail", "schedule-add", "schedule-cancel"}) {
    CAPTURE(write);
    CHECK(presence_kind(write) == PresenceKind::write);
  }
  for (const char* read : {"check", "inbox", "count", "sent", "search"}) {
    CAPTURE(read);
    CHECK(presence_kind(read) == PresenceKind::read);
  }
  CHECK(presence_kind("wait") == PresenceKind::wait);
  CHECK(presence_kind("watch") == PresenceKind::wait);
  for (const char* view : {"team", "peers", "status", "trace", "thread", "peek", "agents", "config",
                           "schedule-list", "wake-status", "resources/read", "no-such-operation"}) {
    CAPTURE(view);
    CHECK(presence_kind(view) == PresenceKind::none);
    CHECK(presence_of(view, Source::command) == std::nullopt);
    CHECK(presence_of(view, Source::mcp) == std::nullopt);
    CHECK(presence_of(view, Source::http) == std::nullopt);
  }
  // A tool's name and a command's are one row.
  CHECK(presence_kind("mark_read") == PresenceKind::write);
  CHECK(presence_kind("schedule_list") == PresenceKind::none);
  // A CLI subcommand is named as its tool: `schedule add` is schedule_add.
  CHECK(presence_of("schedule add", Source::command) == SeenVia::command);
  CHECK(presence_of("schedule pause", Source::command) == SeenVia::command);
  CHECK(presence_of("schedule list", Source::command) == std::nullopt);
  CHECK(presence_of("schedule run-due", Source::command) == std::nullopt);

  // Each surface its source; the CLI's check, wait and watch name themselves.
  CHECK(presence_of("send", Source::command) == SeenVia::command);
  CHECK(presence_of("inbox", Source::command) == SeenVia::command);
  CHECK(presence_of("check", Source::command) == SeenVia::check);
  CHECK(presence_of("wait", Source::command) == SeenVia::wait);
  CHECK(presence_of("watch", Source::command) == SeenVia::watch);
  CHECK(presence_of("check", Source::mcp) == SeenVia::mcp);
  CHECK(presence_of("wait", Source::mcp) == SeenVia::mcp);
  CHECK(presence_of("send", Source::http) == SeenVia::http);

  // serve: the method decides.
  CHECK(presence_of_request("POST") == SeenVia::http);
  CHECK(presence_of_request("DELETE") == SeenVia::http);
  CHECK(presence_of_request("GET") == std::nullopt);
  CHECK(presence_of_request("HEAD") == std::nullopt);
}

TEST_CASE("a send records the source its surface set, and nothing when none was set")
{
  const std::pair<Source, SeenVia> sources[] = {
      {Source::command, SeenVia::command}, {Source::mcp, SeenVia::mcp}, {Source::http, SeenVia::http}};
  for (const auto& [source, via] : sources) {
    PresenceWorld world;
    const Presence presence = Presence::of(world.session, "send", source);
    CHECK(presence.kind == PresenceKind::write);
    REQUIRE(world.send_bob().ok());
    CHECK(world.seen_via() == via); // in the send's own transaction
  }
  PresenceWorld untold; // a session no surface set up: the store is told nothing
  REQUIRE(untold.send_bob().ok());
  CHECK(untold.seen_via() == std::nullopt);
}

TEST_CASE("serve: a POST records http once it succeeded, a GET records nothing")
{
  PresenceWorld get;
  const Presence viewing = Presence::of_request(get.session, "GET");
  CHECK(viewing.kind == PresenceKind::none);
  REQUIRE(inbox(get.session, InboxRequest{}).ok());
  viewing.after(get.session);
  CHECK(get.seen_via() == std::nullopt);

  PresenceWorld post;
  const Presence writing = Presence::of_request(post.session, "POST");
  CHECK(writing.kind == PresenceKind::write);
  REQUIRE(inbox(post.session, InboxRequest{}).ok()); // a write the store records no presence for
  CHECK(post.seen_via() == std::nullopt);
  writing.after(post.session);
  CHECK(post.seen_via() == SeenVia::http);
}

TEST_CASE("a read records its presence after it succeeded, at most once a minute; a view never")
{
  PresenceWorld world;
  const Presence reading = Presence::of(world.session, "inbox", Source::mcp);
  CHECK(reading.kind == PresenceKind::read);
  reading.before(world.session); // a read is not seen before it ran
  CHECK(world.seen_via() == std::nullopt);
  REQUIRE(inbox(world.session, InboxRequest{}).ok());
  reading.after(world.session);
  CHECK(world.seen_via() == SeenVia::mcp);

  // Within the minute another source's read does not rewrite it; past it, it does.
  const Presence again = Presence::of(world.session, "inbox", Source::command);
  world.clock.advance(30 * 1000);
  again.after(world.session);
  CHECK(world.seen_via() == SeenVia::mcp);
  world.clock.advance(31 * 1000);
  again.after(world.session);
  CHECK(world.seen_via() == SeenVia::command);

  PresenceWorld view;
  const Presence team_view = Presence::of(view.session, "team", Source::mcp);
  CHECK_FALSE(view.session.presence.has_value());
  REQUIRE(team(view.session, TeamRequest{}).ok());
  team_view.after(view.session);
  CHECK(view.seen_via() == std::nullopt);
}

TEST_CASE("wait and watch are seen when they start")
{
  PresenceWorld world;
  const Presence waiting = Presence::of(world.session, "wait", Source::command);
  CHECK(waiting.kind == PresenceKind::wait);
  waiting.before(world.session);
  CHECK(world.seen_via() == SeenVia::wait);
}

} // namespace mailroom::ops
