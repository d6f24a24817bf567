// Rules decided once below the surfaces (contract Round 4, "Three surfaces, one truth"), run on a
// real bead store in memory: the empty-message rule, send-and-wait, the [notify] fan-out.

#include <chrono>

#include <doctest/doctest.h>

#include "beads/bead_store.hpp"
#include "ops/notify.hpp"
#include "ops/send.hpp"
#include "ops/send_wait.hpp"
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
  config::Identity me{"alice", config::default_origin()};
  ProviderSlot slot{[this]() -> Result<mail::Provider*> { return store.get(); }};
  Session session{config, policy, clock, me, env, slot};
  std::vector<Notice> notices;

  World()
  {
    mail::StoreSettings settings;
    settings.path = ":memory:";
    auto made = providers::beads::open_bead_store(settings, policy, clock);
    REQUIRE(made.ok());
    store = std::move(made).value();
    REQUIRE(mailroom::testing::reach(*store).add_agents({"alice", "bob", "carol"}).ok());
    session.notice = [this](const Notice& notice) { notices.push_back(notice); };
  }

  std::int64_t total(const std::string& mailbox) { return store->count(mailbox)->total; }
};

} // namespace

TEST_CASE("an empty message (no subject, empty body) is refused by send and reply, whatever the surface")
{
  World world;
  SendRequest empty;
  empty.to = {"bob"};
  auto refused = send(world.session, empty);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code == ErrorCode::usage);
  CHECK(refused.error().message == "the message is empty: no subject and no body");
  empty.subject = ""; // an empty subject is none
  CHECK_FALSE(send(world.session, empty).ok());
  CHECK(world.total("bob") == 0);

  SendRequest subject_only = empty;
  subject_only.subject = "subject only";
  REQUIRE(send(world.session, subject_only).ok());
  SendRequest body_only = empty;
  body_only.subject = "";
  body_only.body = "first line\nmore";
  const auto sent = send(world.session, body_only);
  REQUIRE(sent.ok());
  CHECK(sent->receipts.front().message.subject == "first line"); // derived, as with no subject
  CHECK(world.total("bob") == 2);

  ReplyRequest reply_empty;
  reply_empty.id = sent->receipts.front().message.id;
  const auto no_reply = reply(world.session, reply_empty);
  REQUIRE_FALSE(no_reply.ok());
  CHECK(no_reply.error().code == ErrorCode::usage);
  CHECK(world.total("alice") == 0);
}

TEST_CASE(
    "send_and_wait: the sent hook runs once the message is stored; a wait that times out leaves it sent")
{
  World world;
  SendWaitRequest request;
  request.send.to = {"bob"};
  request.send.body = "anyone?";
  request.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
  int hooked = 0;
  int delivered = 0;
  const auto result = send_and_wait(
      world.session, request,
      [&](const SendResult& sent) { hooked += static_cast<int>(sent.receipts.size()); },
      [&](const SendResult&, const WaitResult&) -> Result<void> {
        ++delivered;
        return {};
      });
  REQUIRE(result.ok());
  CHECK(hooked == 1);
  CHECK(delivered == 0);
  REQUIRE(result->waited.has_value());
  CHECK(result->waited->outcome.end == mail::WaitEnd::timed_out);
  CHECK(result->waited->request == std::optional(result->sent.receipts.front().message.id));
  CHECK(world.total("bob") == 1);

  SendWaitRequest empty = request;
  empty.send.body.clear();
  CHECK_FALSE(send_and_wait(world.session, empty, {}, {}).ok()); // the empty-message rule, before anything
  CHECK(world.total("bob") == 1);
}

TEST_CASE(
    "the [notify] fan-out: {to} {from} {id} {subject} expanded once; no command or a failing one is a notice")
{
  World world;
  mail::SendReceipt receipt;
  receipt.message.id = "mr-1";
  receipt.message.from = "alice";
  receipt.message.subject = "says {id}";
  receipt.recipients = {"bob", "carol"};
  CHECK(expand_notify_argv({"x", "{to}:{from}:{id}", "{subject}"}, receipt) ==
        std::vector<std::string>{"x", "bob,carol:alice:mr-1", "says {id}"});

  notify_recipients(world.session, receipt);
  REQUIRE(world.notices.size() == 1);
  CHECK(world.notices[0].code == "no_notify_command");

  world.notices.clear();
  world.config.notify_command.value = {"false"};
  notify_recipients(world.session, receipt);
  REQUIRE(world.notices.size() == 1);
  CHECK(world.notices[0].code == "notify_failed");

  world.notices.clear();
  world.config.notify_command.value = {"true", "{to}"}; // one run per recipient, each succeeding
  notify_recipients(world.session, receipt);
  CHECK(world.notices.empty());
}

} // namespace mailroom::ops
