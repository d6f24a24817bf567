// The event hub on a real bead store file (two connections: the hub's and a writer's): a send
// reaches a stream from now on, a stream resumed after a seq catches up, one reset when what it
// last saw was pruned, heartbeats, peer.state, and the stream cap.

#include <condition_variable>
#include <mutex>

#include <doctest/doctest.h>

#include "beads/bead_store.hpp"
#include "http/event_hub.hpp"
#include "testing/fixed_clock.hpp"
#include "testing/reach.hpp"
#include "testing/temp_dir.hpp"
#include "util/environment.hpp"

namespace mailroom::http {

namespace {

struct Collected {
  std::mutex mutex;
  std::condition_variable changed;
  std::string text;

  StreamSource::Sink sink()
  {
    return [this](std::string more) {
      std::lock_guard lock(mutex);
      text += more;
      changed.notify_all();
    };
  }
  // True once the text holds `what` (within 10 s).
  bool has(const std::string& what)
  {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, std::chrono::seconds(10),
                            [&]() { return text.find(what) != std::string::npos; });
  }
  std::string snapshot()
  {
    std::lock_guard lock(mutex);
    return text;
  }
  std::size_t count(const std::string& what)
  {
    std::lock_guard lock(mutex);
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
      ++n;
    }
    return n;
  }
};

struct Hubbed {
  testing::FixedClock clock;
  config::Config config;
  mail::MailPolicy policy;
  util::MapEnvironment env{{}, "/"};
  config::Identity me{"human", config::default_origin()};
  std::string path = (testing::make_temp_dir("event-hub") / "mail.db").string();
  ops::ConnectionPool connections;
  Credentials credentials{std::string(64, 'a')};
  LoginCodes codes;
  ApiEnv api;
  std::unique_ptr<mail::Provider> writer;

  std::unique_ptr<mail::Provider> open(mail::Access access)
  {
    mail::StoreSettings settings;
    settings.path = path;
    settings.access = access;
    auto store = providers::beads::open_bead_store(settings, policy, clock);
    REQUIRE_MESSAGE(store.ok(), (store.ok() ? "" : store.error().message));
    return std::move(store).value();
  }

  Hubbed()
      : connections(
            [this]() -> Result<std::unique_ptr<mail::Provider>> { return open(mail::Access::write); }),
        api{config, policy, clock, me, env, connections, credentials, codes, host_rule({}, 8025), {}}
  {
    writer = open(mail::Access::create);
    REQUIRE(mailroom::testing::reach(*writer).add_agents({"alice", "bob"}).ok());
  }

  mail::MessageId send(const std::string& subject)
  {
    mail::SendRequest request;
    request.from = "alice";
    request.to = {"bob"};
    request.subject = subject;
    request.body = "body";
    auto receipt = writer->send(request);
    REQUIRE(receipt.ok());
    clock.advance(1000);
    return receipt->message.id;
  }
};

EventHubOptions fast()
{
  EventHubOptions options;
  options.heartbeat = std::chrono::milliseconds(50);
  options.peer_period = std::chrono::milliseconds(50);
  options.max_streams = 2;
  return options;
}

} // namespace

TEST_CASE("event hub: a send reaches a stream; a resumed stream catches up; the cap")
{
  Hubbed h;
  const mail::MessageId before = h.send("before the stream");
  // The streams outlive the hub: its thread may deliver to them until it is stopped.
  Collected live;
  Collected resumed;
  Collected third;
  EventHub hub(h.api, fast());
  REQUIRE(hub.start().ok());
  REQUIRE(hub.subscribe(std::nullopt, live.sink()).has_value());
  const mail::MessageId during = h.send("during the stream");
  CHECK(live.has("\"id\":\"" + during + "\""));
  CHECK(live.count("event: mail.sent") == 1); // nothing from before it started
  CHECK(live.has(": heartbeat"));

  const auto id = hub.subscribe(0, resumed.sink());
  REQUIRE(id.has_value());
  CHECK(resumed.has("\"id\":\"" + during + "\""));
  CHECK(resumed.count("\"id\":\"" + before + "\"") == 1);
  const std::string seen = resumed.snapshot();
  CHECK(seen.find(before) < seen.find(during));

  CHECK_FALSE(hub.subscribe(std::nullopt, third.sink()).has_value()); // two at most here
  hub.unsubscribe(*id);
  CHECK(hub.subscribe(std::nullopt, third.sink()).has_value());
  hub.stop();
}

TEST_CASE("event hub: a stream after a pruned seq gets one reset, then the oldest kept")
{
  Hubbed h;
  h.send("one");
  h.send("two");
  const mail::MessageId three = h.send("three");
  REQUIRE(mailroom::testing::reach(*h.writer)
              .prune_events(mail::EventRetention{mail::EventRetention{}.max_age_ms, 1})
              .ok());
  Collected stream; // outlives the hub, whose thread may deliver to it until the hub stops
  EventHub hub(h.api, fast());
  REQUIRE(hub.start().ok());
  REQUIRE(hub.subscribe(0, stream.sink()).has_value());
  CHECK(stream.has("\"id\":\"" + three + "\""));
  CHECK(stream.count("event: reset") == 1);
  CHECK(stream.count("event: mail.sent") == 1);
  const std::string seen = stream.snapshot();
  CHECK(seen.find("event: reset") < seen.find("event: mail.sent"));
}

TEST_CASE("event hub: peer.state when a mailbox's state changes")
{
  Hubbed h;
  Collected stream; // outlives the hub, whose thread may deliver to it until the hub stops
  EventHub hub(h.api, fast());
  REQUIRE(hub.start().ok());
  REQUIRE(hub.subscribe(std::nullopt, stream.sink()).has_value());
  REQUIRE(mailroom::testing::reach(*h.writer).add_agents({"carol"}).ok()); // a mailbox new to the team
  CHECK(stream.has("event: peer.state"));
  CHECK(stream.has("\"mailbox\":\"carol\""));
}

} // namespace mailroom::http
