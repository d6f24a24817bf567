// The events operation on a real bead store in memory: from now on, after a seq, the reset when
// what the caller last saw was pruned or was never this store's, bad requests, and the JSON of one
// event.

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "beads/bead_store.hpp"
#include "ops/events.hpp"
#include "testing/fixed_clock.hpp"
#include "testing/reach.hpp"
#include "util/environment.hpp"

namespace mailroom::ops {

namespace {

struct World {
  testing::FixedClock clock;
  std::unique_ptr<mail::Provider> store;
  config::Config config;
  mail::MailPolicy policy;
  util::MapEnvironment env{{}, "/"};
  config::Identity me{"human", config::default_origin()};

  World()
  {
    mail::StoreSettings settings;
    settings.path = ":memory:";
    auto made = providers::beads::open_bead_store(settings, policy, clock);
    REQUIRE(made.ok());
    store = std::move(made).value();
    REQUIRE(mailroom::testing::reach(*store).add_agents({"alice", "bob"}).ok());
  }

  mail::MessageId send(const std::string& from, const std::string& to)
  {
    mail::SendRequest request;
    request.from = from;
    request.to = {to};
    request.subject = "secret subject";
    request.body = "secret body";
    auto receipt = store->send(request);
    REQUIRE(receipt.ok());
    clock.advance(1000);
    return receipt->message.id;
  }
};

} // namespace

TEST_SUITE("mailroom::ops events")
{
  TEST_CASE("events: from now on, after a seq, and one reset once what was last seen is pruned")
  {
    World world;
    ProviderSlot slot(*world.store);
    Session session{world.config, world.policy, world.clock, world.me, world.env, slot};

    auto now = events(session, EventsRequest{});
    REQUIRE(now.ok());
    CHECK(now->events.empty());
    CHECK(now->last_seq == 0);
    CHECK_FALSE(now->reset);

    const auto first = world.send("alice", "bob");
    const auto second = world.send("bob", "alice");
    now = events(session, EventsRequest{});
    REQUIRE(now.ok());
    CHECK(now->events.empty()); // from now on: nothing old
    const std::int64_t newest = now->last_seq;
    CHECK(newest > 0);

    auto all = events(session, EventsRequest{0, 10});
    REQUIRE(all.ok());
    REQUIRE(all->events.size() == 2);
    CHECK(all->events[0].message_id == first);
    CHECK(all->events[1].message_id == second);
    CHECK(all->last_seq == newest);
    CHECK_FALSE(all->reset);

    auto one = events(session, EventsRequest{0, 1});
    REQUIRE(one.ok());
    CHECK(one->events.size() == 1);
    CHECK(one->last_seq == all->events[0].seq);

    // The event JSON: exactly the stream's keys, no subject or body.
    const nlohmann::json event = to_json(all->events[0]);
    CHECK(event == nlohmann::json{{"seq", all->events[0].seq},
                                  {"at", all->events[0].at},
                                  {"type", "mail.sent"},
                                  {"id", first},
                                  {"mailbox", "bob"},
                                  {"actor", "alice"}});
    CHECK(event.dump().find("secret") == std::string::npos);
    const nlohmann::json doc = to_json(*all);
    const nlohmann::json events_schema = events_output_schema();
    for (const auto& key : events_schema.at("required")) {
      CHECK_MESSAGE(doc.contains(key.get<std::string>()), key);
    }
    const nlohmann::json event_schema = event_output_schema();
    for (const auto& key : event_schema.at("required")) {
      CHECK_MESSAGE(event.contains(key.get<std::string>()), key);
    }

    // The first event pruned: a caller that saw nothing is reset, one that saw it is not.
    REQUIRE(mailroom::testing::reach(*world.store)
                .prune_events(mail::EventRetention{mail::EventRetention{}.max_age_ms, 1})
                .ok());
    auto missed = events(session, EventsRequest{0, 10});
    REQUIRE(missed.ok());
    CHECK(missed->reset);
    REQUIRE(missed->events.size() == 1);
    CHECK(missed->events[0].message_id == second);
    auto caught_up = events(session, EventsRequest{all->events[0].seq, 10});
    REQUIRE(caught_up.ok());
    CHECK_FALSE(caught_up->reset);
    CHECK(caught_up->events.size() == 1);
    auto idle = events(session, EventsRequest{newest, 10});
    REQUIRE(idle.ok());
    CHECK(idle->events.empty());
    CHECK(idle->last_seq == newest);

    // A seq past the newest was never this store's: one reset, and on from now.
    for (const std::int64_t foreign : {newest + 1, std::int64_t{9223372036854775807}}) {
      auto ahead = events(session, EventsRequest{foreign, 10});
      REQUIRE(ahead.ok());
      CHECK(ahead->reset);
      CHECK(ahead->events.empty());
      CHECK(ahead->last_seq == newest);
    }

    CHECK(events(session, EventsRequest{-1, 10}).error().code == ErrorCode::usage);
    CHECK(events(session, EventsRequest{0, 0}).error().code == ErrorCode::usage);
  }
}

} // namespace mailroom::ops
