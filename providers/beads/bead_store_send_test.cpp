#include "beads/bead_store.hpp"

#include <algorithm>

#include <doctest/doctest.h>

#include "beads/test_support.hpp"
#include "mail/limits.hpp"
#include "testing/reach.hpp"

namespace {

using mailroom::ErrorCode;
using mailroom::mail::Change;
using mailroom::mail::ListQuery;
using mailroom::mail::ReplyRequest;
using mailroom::mail::SendRequest;
using namespace mailroom::providers::beads::testing; // NOLINT: test helpers only

ReplyRequest reply_to(const std::string& from, const std::string& id, const std::string& body)
{
  ReplyRequest reply;
  reply.from = from;
  reply.id = id;
  reply.body = body;
  return reply;
}

} // namespace

TEST_SUITE("mailroom::providers::beads::BeadStore")
{
  TEST_CASE("an idempotency key replays the same content and refuses other content")
  {
    FixedClock clock;
    auto store = open_store(":memory:", clock);
    REQUIRE(mailroom::testing::reach(*store).add_agents({"bob", "carol"}).ok());
    SendRequest request = message("alice", "bob", "deploy done");
    request.idempotency_key = "k1";
    auto first = store->send(request);
    REQUIRE(first.ok());
    CHECK_FALSE(first->replayed);
    clock.advance(1000);

    auto again = store->send(request);
    REQUIRE(again.ok());
    CHECK(again->replayed);
    CHECK(again->message.id == first->message.id);
    CHECK(again->message.created_at == first->message.created_at);
    CHECK(again->recipients == first->recipients);
    CHECK(store->count("bob")->total == 1);

    SendRequest changed = request;
    changed.body = "deploy failed";
    auto conflict = store->send(changed);
    REQUIRE_FALSE(conflict.ok());
    CHECK(conflict.error().code == ErrorCode::conflict);
    // The fields that differ are named (contract "CI can see a replay").
    CHECK(conflict.error().message == "idempotency key \"k1\" was already used for message " +
                                          first->message.id + " with a different body");
    SendRequest other_recipient = request;
    other_recipient.to = {"carol"};
    auto other = store->send(other_recipient);
    CHECK(other.error().code == ErrorCode::conflict);
    CHECK(other.error().message.find("with a different to") != std::string::npos);

    // Keys belong to their sender.
    SendRequest from_carol = request;
    from_carol.from = "carol";
    auto carols = store->send(from_carol);
    REQUIRE(carols.ok());
    CHECK_FALSE(carols->replayed);
    CHECK(store->count("bob")->total == 2);

    // Recipient order does not change the fingerprint.
    SendRequest two = message("alice", "bob", "pair");
    two.to = {"bob", "carol"};
    two.idempotency_key = "k2";
    REQUIRE(store->send(two).ok());
    two.to = {"carol", "bob"};
    CHECK(store->send(two)->replayed);
  }

  TEST_CASE("size caps are usage errors and store nothing")
  {
    FixedClock clock;
    auto store = open_store(":memory:", clock);
    REQUIRE(mailroom::testing::reach(*store).add_agents({"bob"}).ok());
    SendRequest big = message("alice", "bob", "big");
    big.body.assign(mailroom::mail::k_max_body_bytes + 1, 'x');
    auto refused = store->send(big);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == ErrorCode::usage);
    CHECK(refused.error().message == "body is 10485761 bytes; the limit is 10485760 bytes (10 MiB)");
    CHECK(store->count("bob")->total == 0);
    CHECK(mailroom::testing::reach(*store).agents()->size() == 1); // the sender was not registered either

    big.body.assign(mailroom::mail::k_max_body_bytes, 'x');
    auto at_limit = store->send(big);
    REQUIRE(at_limit.ok());
    CHECK(store->get("bob", at_limit->message.id)->body.size() == mailroom::mail::k_max_body_bytes);

    SendRequest subject = message("alice", "bob", "s");
    subject.subject = std::string(mailroom::mail::k_max_subject_bytes + 1, 's');
    CHECK(store->send(subject).error().message == "subject is 4097 bytes; the limit is 4096 bytes");
    SendRequest key = message("alice", "bob", "k");
    key.idempotency_key = std::string(300, 'k');
    CHECK(store->send(key).error().code == ErrorCode::usage);

    // A reply is held to the same caps.
    ReplyRequest long_reply = reply_to("bob", at_limit->message.id, "fine");
    long_reply.subject = std::string(5000, 'r');
    auto too_long = store->reply(long_reply);
    REQUIRE_FALSE(too_long.ok());
    CHECK(too_long.error().code == ErrorCode::usage);
    CHECK(too_long.error().message == "subject is 5000 bytes; the limit is 4096 bytes");
    CHECK(store->count("alice")->total == 0);
  }

  TEST_CASE("bodies are raw bytes: invalid UTF-8 and NUL round-trip")
  {
    FixedClock clock;
    TempDir dir;
    auto store = open_store((dir.path / "mail.db").string(), clock);
    REQUIRE(mailroom::testing::reach(*store).add_agents({"bob"}).ok());
    const std::string body("caf\xc3\xa9 \xff\xfe\xc0\x80 nul:\0 end\x1b[31m", 26);
    SendRequest request = message("alice", "bob", "x");
    request.body = body;
    request.subject = "bad \xe2\x82";
    auto sent = store->send(request);
    REQUIRE(sent.ok());
    auto got = store->get("bob", sent->message.id);
    REQUIRE(got.ok());
    CHECK(got->body == body);
    CHECK(got->subject == "bad \xe2\x82");
    ListQuery query;
    query.mailbox = "bob";
    CHECK(store->list(query)->messages.front().message.body == body);
  }

  TEST_CASE("replies stay in the thread; a thread shows every message to anyone")
  {
    FixedClock clock;
    auto store = open_store(":memory:", clock);
    REQUIRE(mailroom::testing::reach(*store).add_agents({"alice", "bob", "carol", "dave"}).ok());
    SendRequest request = message("alice", "bob", "question");
    request.subject = "Plan";
    request.cc = {"carol"};
    auto sent = store->send(request);
    REQUIRE(sent.ok());
    clock.advance(1);

    auto reply = store->reply(reply_to("bob", sent->message.id, "answer"));
    REQUIRE(reply.ok());
    CHECK(reply->message.thread_id == sent->message.thread_id);
    CHECK(reply->message.reply_to == sent->message.id);
    CHECK(reply->message.subject == "Re: Plan");
    CHECK(reply->recipients == std::vector<std::string>{"alice"});
    clock.advance(1);

    ReplyRequest everyone = reply_to("carol", sent->message.id, "me too");
    everyone.reply_all = true;
    auto all = store->reply(everyone);
    REQUIRE(all.ok());
    CHECK(all->recipients == std::vector<std::string>{"alice", "bob"});

    ReplyRequest outsider = reply_to("dave", sent->message.id, "hi");
    auto refused = store->reply(outsider);
    CHECK(refused.error().code == ErrorCode::not_recipient);
    CHECK(refused.error().message.find("dave") != std::string::npos);
    CHECK(refused.error().message.find(sent->message.id) != std::string::npos);
    outsider.id = "mr-nope";
    CHECK(store->reply(outsider).error().code == ErrorCode::not_found);

    auto by_thread = store->thread("alice", sent->message.thread_id);
    REQUIRE(by_thread.ok());
    REQUIRE(by_thread->messages.size() == 3);
    CHECK(by_thread->messages[0].id == sent->message.id);
    CHECK_FALSE(by_thread->messages[0].state.has_value()); // alice sent it: no delivery of hers
    REQUIRE(by_thread->messages[1].state.has_value());
    CHECK_FALSE(by_thread->messages[1].state->read);
    auto by_message = store->thread("carol", reply->message.id);
    REQUIRE(by_message.ok());
    CHECK(by_message->thread_id == sent->message.thread_id);
    REQUIRE(by_message->messages.size() == 3);  // bob's reply too, without state for carol
    CHECK(by_message->messages[0].state->read); // replying to it read it
    CHECK_FALSE(by_message->messages[1].state.has_value());
    auto outsider_view = store->thread("dave", sent->message.thread_id);
    REQUIRE(outsider_view.ok());
    CHECK(outsider_view->messages.size() == 3);
    for (const auto& message : outsider_view->messages) {
      CHECK_FALSE(message.state.has_value());
    }
    auto unknown = store->thread("alice", "thread-000000000000");
    REQUIRE_FALSE(unknown.ok());
    CHECK(unknown.error().code == ErrorCode::not_found);
  }

  TEST_CASE("a reply marks the original read and acks it in the reply's own transaction")
  {
    FixedClock clock;
    auto store = open_store(":memory:", clock);
    REQUIRE(mailroom::testing::reach(*store).add_agents({"alice", "bob"}).ok());
    SendRequest task = message("alice", "bob", "build it");
    task.type = "task_request";
    auto sent = store->send(task);
    REQUIRE(sent.ok());
    clock.advance(500);
    auto reply = store->reply(reply_to("bob", sent->message.id, "built"));
    REQUIRE(reply.ok());
    auto status = mailroom::testing::reach(*store).status(sent->message.id);
    REQUIRE(status.ok());
    REQUIRE(status->deliveries.size() == 1);
    const auto& bob = status->deliveries.front();
    CHECK(bob.read_at == clock.now());
    CHECK(bob.ack_state == mailroom::mail::AckState::acked);
    CHECK(bob.acked_at == clock.now());
    CHECK(store->count("bob")->unread == 0);
    CHECK(store->count("alice")->unread == 1);
  }

  TEST_CASE("ids are unique and never reused")
  {
    FixedClock clock;
    auto store = open_store(":memory:", clock);
    REQUIRE(mailroom::testing::reach(*store).add_agents({"bob"}).ok());
    std::vector<std::string> ids;
    for (int i = 0; i < 300; ++i) {
      auto sent = store->send(message("alice", "bob", "same"));
      REQUIRE(sent.ok());
      ids.push_back(sent->message.id);
      REQUIRE(store->change(as("bob"), sent->message.id, Change::archive).ok());
    }
    std::sort(ids.begin(), ids.end());
    CHECK(std::adjacent_find(ids.begin(), ids.end()) == ids.end());
  }
}
