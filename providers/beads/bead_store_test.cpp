#include "beads/bead_store.hpp"

#include <algorithm>

#include <doctest/doctest.h>

#include "beads/test_support.hpp"

namespace {

using mailroom::mail::ChangeOutcome;
using mailroom::ErrorCode;
using mailroom::mail::ListOptions;
using mailroom::mail::Message;
using mailroom::mail::Priority;
using mailroom::mail::SendRequest;
using mailroom::providers::beads::BeadStore;
using namespace mailroom::providers::beads::testing; // NOLINT: test helpers only

std::vector<std::string> ids_of(const std::vector<Message>& messages)
{
  std::vector<std::string> ids;
  for (const auto& m : messages) {
    ids.push_back(m.id);
  }
  return ids;
}

// Runs `body` on an in-memory store and on a file store.
template<typename Body>
void on_both_stores(Body body)
{
  ManualClock clock;
  TempDir dir;
  SUBCASE(":memory:") { body(*open_store(":memory:", clock), clock); }
  SUBCASE("file") { body(*open_store((dir.path / "mail.db").string(), clock), clock); }
}

} // namespace

TEST_SUITE("mailroom::providers::beads::BeadStore")
{
  TEST_CASE("send, inbox, read and get follow the caller's delivery record")
  {
    on_both_stores([](BeadStore& store, ManualClock& clock) {
      REQUIRE(store.add_agents({"bob", "carol"}).ok());
      auto sent = store.send(message("alice", "bob", "hello"));
      REQUIRE(sent.ok());
      CHECK(sent->message.id.rfind("mr-", 0) == 0);
      CHECK(sent->message.id.size() == 9);
      CHECK(sent->message.thread_id.size() == std::string("thread-").size() + 12);
      CHECK(sent->recipients == std::vector<std::string>{"bob"});
      CHECK(sent->message.created_at == clock.now());

      auto inbox = store.inbox("bob", {});
      REQUIRE(inbox.ok());
      REQUIRE(inbox->size() == 1);
      CHECK(inbox->front().id == sent->message.id);
      CHECK(inbox->front().from == "alice");
      CHECK(inbox->front().to == std::vector<std::string>{"bob"});
      CHECK_FALSE(inbox->front().read);
      CHECK(store.inbox("carol", {})->empty());

      std::string delivered;
      auto read = store.read("bob", sent->message.id, [&](const Message& m) {
        delivered = m.body;
        return mailroom::Result<void>();
      });
      REQUIRE(read.ok());
      CHECK(delivered == "hello");
      CHECK_FALSE(read->read); // as it was before marking
      CHECK(store.inbox("bob", {})->empty());
      ListOptions all;
      all.include_read = true;
      CHECK(store.inbox("bob", all)->size() == 1);
      auto got = store.get("bob", sent->message.id);
      REQUIRE(got.ok());
      CHECK(got->read);

      // The sender sees it read, and nothing is marked for them.
      auto as_sender = store.get("alice", sent->message.id);
      REQUIRE(as_sender.ok());
      CHECK(as_sender->read);
      auto stranger = store.get("carol", sent->message.id);
      REQUIRE_FALSE(stranger.ok());
      CHECK(stranger.error().code == ErrorCode::not_recipient);
      CHECK(stranger.error().message ==
            "mailbox \"carol\" is not a recipient of " + sent->message.id);
      auto missing = store.get("bob", "mr-zzz");
      REQUIRE_FALSE(missing.ok());
      CHECK(missing.error().code == ErrorCode::not_found);
      CHECK(missing.error().message == "message \"mr-zzz\" not found");
    });
  }

  TEST_CASE("a failed delivery does not mark the message read")
  {
    ManualClock clock;
    auto store = open_store(":memory:", clock);
    REQUIRE(store->add_agents({"bob"}).ok());
    auto sent = store->send(message("alice", "bob", "hi"));
    REQUIRE(sent.ok());
    auto read = store->read("bob", sent->message.id, [](const Message&) -> mailroom::Result<void> {
      return mailroom::make_error(ErrorCode::store_error, "stdout closed");
    });
    REQUIRE_FALSE(read.ok());
    CHECK(read.error().message == "stdout closed");
    CHECK(store->count("bob")->unread == 1);
  }

  TEST_CASE("a broadcast read or archived by one recipient stays unread for the others")
  {
    on_both_stores([](BeadStore& store, ManualClock&) {
      REQUIRE(store.add_agents({"human", "coder", "committer", "tester"}).ok());
      SendRequest request = message("coder", "", "standup");
      request.to.clear();
      request.broadcast = true;
      auto sent = store.send(request);
      REQUIRE(sent.ok());
      CHECK(sent->recipients == std::vector<std::string>{"committer", "tester"});
      const std::string id = sent->message.id;

      CHECK(*store.mark_read("committer", id) == ChangeOutcome::changed);
      CHECK(*store.mark_read("committer", id) == ChangeOutcome::already);
      CHECK(store.count("committer")->unread == 0);
      CHECK(store.count("tester")->unread == 1);

      CHECK(*store.archive("tester", id) == ChangeOutcome::changed);
      CHECK(*store.archive("tester", id) == ChangeOutcome::already);
      CHECK(store.inbox("tester", {})->empty());
      CHECK(store.count("tester")->total == 0);
      CHECK(store.count("committer")->total == 1);
      CHECK(*store.unarchive("tester", id) == ChangeOutcome::changed);
      CHECK(*store.unarchive("tester", id) == ChangeOutcome::already);
      CHECK(store.inbox("tester", {})->size() == 1);

      CHECK(*store.mark_unread("committer", id) == ChangeOutcome::changed);
      CHECK(*store.mark_unread("committer", id) == ChangeOutcome::already);
      CHECK(store.check("committer", 3)->unread == 1);

      auto stranger = store.archive("human", id);
      REQUIRE_FALSE(stranger.ok());
      CHECK(stranger.error().code == ErrorCode::not_recipient);
      auto sender = store.mark_read("coder", id);
      REQUIRE_FALSE(sender.ok());
      CHECK(sender.error().code == ErrorCode::not_recipient);
      auto missing = store.mark_read("tester", "mr-000000");
      REQUIRE_FALSE(missing.ok());
      CHECK(missing.error().code == ErrorCode::not_found);
    });
  }

  TEST_CASE("inbox order, check, count and mark_all_read agree")
  {
    on_both_stores([](BeadStore& store, ManualClock& clock) {
      REQUIRE(store.add_agents({"bob"}).ok());
      std::vector<std::string> ids;
      for (Priority p : {Priority::low, Priority::normal, Priority::urgent, Priority::normal}) {
        SendRequest request = message("alice", "bob", "m");
        request.priority = p;
        ids.push_back(store.send(request)->message.id);
        clock.advance();
      }
      const std::vector<std::string> expected = {ids[2], ids[1], ids[3], ids[0]};
      CHECK(ids_of(*store.inbox("bob", {})) == expected);
      ListOptions two;
      two.limit = 2;
      CHECK(ids_of(*store.inbox("bob", two)) == std::vector<std::string>{ids[2], ids[1]});

      auto check = store.check("bob", 2);
      REQUIRE(check.ok());
      CHECK(check->unread == 4);
      CHECK(ids_of(check->messages) == std::vector<std::string>{ids[2], ids[1]});
      auto bare = store.check("bob", 0);
      REQUIRE(bare.ok());
      CHECK(bare->unread == 4);
      CHECK(bare->messages.empty());
      auto nobody = store.check("nobody", 3);
      REQUIRE(nobody.ok());
      CHECK(nobody->unread == 0);
      CHECK(nobody->messages.empty());
      CHECK(store.count("nobody")->total == 0);

      REQUIRE(store.mark_read("bob", ids[1]).ok());
      REQUIRE(store.archive("bob", ids[0]).ok());
      auto counts = store.count("bob");
      CHECK(counts->total == 3);
      CHECK(counts->unread == 2);
      CHECK(store.check("bob", 10)->messages.size() == 2);

      auto marked = store.mark_all_read("bob");
      REQUIRE(marked.ok());
      CHECK(*marked == std::vector<std::string>{ids[2], ids[3]});
      CHECK(store.mark_all_read("bob")->empty());
      CHECK(store.count("bob")->unread == 0);
    });
  }

  TEST_CASE("recipients: to wins over cc, duplicates collapse, status lists to then cc")
  {
    ManualClock clock;
    auto store = open_store(":memory:", clock);
    REQUIRE(store->add_agents({"bob", "carol", "dave"}).ok());
    SendRequest request = message("alice", "bob", "x");
    request.to = {"bob", "carol", "bob"};
    request.cc = {"carol", "dave", "dave"};
    auto sent = store->send(request);
    REQUIRE(sent.ok());
    CHECK(sent->recipients == std::vector<std::string>{"bob", "carol", "dave"});
    CHECK(sent->message.to == std::vector<std::string>{"bob", "carol"});
    CHECK(sent->message.cc == std::vector<std::string>{"dave"});
    clock.advance(5);
    REQUIRE(store->mark_read("carol", sent->message.id).ok());

    auto status = store->status("alice", sent->message.id);
    REQUIRE(status.ok());
    REQUIRE(status->size() == 3);
    CHECK((*status)[0].recipient == "bob");
    CHECK((*status)[0].kind == "to");
    CHECK_FALSE((*status)[0].read_at.has_value());
    CHECK((*status)[1].read_at == clock.now());
    CHECK((*status)[2].recipient == "dave");
    CHECK((*status)[2].kind == "cc");
    CHECK(store->status("dave", sent->message.id).ok());
    CHECK(store->status("eve", sent->message.id).error().code == ErrorCode::not_recipient);
  }

  TEST_CASE("unknown, retired and reserved recipients")
  {
    ManualClock clock;
    auto store = open_store(":memory:", clock);
    REQUIRE(store->add_agents({"mayor", "deacon"}).ok());
    auto typo = store->send(message("alice", "mayr", "x"));
    REQUIRE_FALSE(typo.ok());
    CHECK(typo.error().code == ErrorCode::unknown_recipient);
    CHECK(typo.error().message == "unknown recipient \"mayr\"");
    CHECK(typo.error().input == "mayr");
    REQUIRE_FALSE(typo.error().suggestions.empty());
    CHECK(typo.error().suggestions.front() == "mayor");
    CHECK(typo.error().hint ==
          "did you mean \"mayor\"? (register a new mailbox with: mailroom agents add mayr)");
    CHECK(store->count("mayr")->total == 0);

    CHECK(store->send(message("alice", "human", "x")).ok());
    SendRequest any = message("alice", "stranger", "x");
    any.require_registered = false;
    CHECK(store->send(any).ok());

    REQUIRE(store->remove_agent("deacon").ok());
    CHECK(store->remove_agent("deacon").error().code == ErrorCode::not_found);
    CHECK(store->send(message("alice", "deacon", "x")).error().code == ErrorCode::unknown_recipient);
    // alice registered herself by sending; deacon is retired; human is never in @all.
    SendRequest all = message("mayor", "", "x");
    all.to.clear();
    all.broadcast = true;
    auto reached = store->send(all);
    REQUIRE(reached.ok());
    CHECK(reached->recipients == std::vector<std::string>{"alice"});

    auto empty_store = open_store(":memory:", clock);
    REQUIRE(empty_store->add_agents({"mayor", "human"}).ok());
    auto nobody = empty_store->send(all);
    REQUIRE_FALSE(nobody.ok());
    CHECK(nobody.error().code == ErrorCode::usage);
    CHECK(nobody.error().message ==
          "no recipients: @all matched no registered mailbox other than the sender");
    CHECK(empty_store->count("human")->total == 0);
    CHECK(*store->add_agents({"deacon", "mayor"}) == std::vector<std::string>{"deacon"});
  }

  TEST_CASE("agents: registration, last seen and unread counts")
  {
    ManualClock clock;
    auto store = open_store(":memory:", clock);
    REQUIRE(store->ensure_registered("bob").ok());
    REQUIRE(store->ensure_registered("bob").ok());
    clock.advance(10);
    auto sent = store->send(message("alice", "bob", "x"));
    REQUIRE(sent.ok());
    auto agents = store->agents();
    REQUIRE(agents.ok());
    REQUIRE(agents->size() == 2);
    CHECK((*agents)[0].name == "alice");
    CHECK((*agents)[0].last_seen == clock.now());
    CHECK((*agents)[1].name == "bob");
    CHECK((*agents)[1].unread == 1);
    CHECK_FALSE((*agents)[1].last_seen.has_value());
    clock.advance(10);
    REQUIRE(store->archive("bob", sent->message.id).ok());
    agents = store->agents();
    CHECK((*agents)[1].last_seen == clock.now());
    CHECK((*agents)[1].unread == 0);
  }

  TEST_CASE("a broadcast to 1,000 mailboxes is one message")
  {
    ManualClock clock;
    auto store = open_store(":memory:", clock);
    std::vector<std::string> names;
    for (int i = 0; i < 1000; ++i) {
      names.push_back("agent-" + std::to_string(i));
    }
    REQUIRE(store->add_agents(names).ok());
    SendRequest all = message("boss", "", "all hands");
    all.to.clear();
    all.broadcast = true;
    auto sent = store->send(all);
    REQUIRE(sent.ok());
    CHECK(sent->recipients.size() == 1000);
    CHECK(store->count("agent-999")->unread == 1);
    CHECK(store->status("boss", sent->message.id)->size() == 1000);
  }
}
