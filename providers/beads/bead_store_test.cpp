#include "beads/bead_store.hpp"

#include <algorithm>
#include <cctype>

#include <unistd.h>

#include <doctest/doctest.h>

#include "beads/test_support.hpp"
#include "testing/reach.hpp"

namespace {

using mailroom::ErrorCode;
using mailroom::mail::Change;
using mailroom::mail::ChangeOutcome;
using mailroom::mail::ListQuery;
using mailroom::mail::Message;
using mailroom::mail::Priority;
using mailroom::mail::SendRequest;
using mailroom::providers::sqlstore::SqlStore;
using namespace mailroom::providers::beads::testing; // NOLINT: test helpers only

std::vector<std::string> ids_of(const std::vector<Message>& messages)
{
  std::vector<std::string> ids;
  for (const auto& m : messages) {
    ids.push_back(m.id);
  }
  return ids;
}

// The unread (or, with `include_read`, every open) messages of `mailbox`, at most `limit`.
std::vector<Message> inbox(SqlStore& store, const std::string& mailbox, bool include_read = false,
                           std::optional<std::size_t> limit = std::nullopt)
{
  ListQuery query;
  query.mailbox = mailbox;
  query.include_read = include_read;
  query.limit = limit;
  auto listed = store.list(query);
  REQUIRE(listed.ok());
  std::vector<Message> messages;
  for (auto& entry : listed->messages) {
    messages.push_back(std::move(entry.message));
  }
  return messages;
}

mailroom::Result<ChangeOutcome> change(SqlStore& store, const std::string& mailbox, const std::string& id,
                                       Change what)
{
  return store.change(as(mailbox), id, what);
}

bool is_hex(const std::string& text)
{
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

// Runs `body` on an in-memory store and on a file store.
template <typename Body> void on_both_stores(Body body)
{
  FixedClock clock;
  TempDir dir;
  SUBCASE(":memory:")
  {
    body(*open_store(":memory:", clock), clock);
  }
  SUBCASE("file")
  {
    body(*open_store((dir.path / "mail.db").string(), clock), clock);
  }
}

} // namespace

TEST_SUITE("mailroom::providers::beads::BeadStore")
{
  TEST_CASE("send, inbox, read and get follow the caller's delivery record")
  {
    on_both_stores([](SqlStore& store, FixedClock& clock) {
      REQUIRE(store.add_agents({"alice", "bob", "carol"}).ok());
      auto sent = store.send(message("alice", "bob", "hello"));
      REQUIRE(sent.ok());
      // "mr-" and 64 random bits.
      CHECK(sent->message.id.rfind("mr-", 0) == 0);
      CHECK(sent->message.id.size() == 3 + 16);
      CHECK(is_hex(sent->message.id.substr(3)));
      CHECK(sent->message.thread_id.size() == std::string("thread-").size() + 12);
      CHECK(sent->recipients == std::vector<std::string>{"bob"});
      CHECK(sent->message.created_at == clock.now());

      const auto listed = inbox(store, "bob");
      REQUIRE(listed.size() == 1);
      CHECK(listed.front().id == sent->message.id);
      CHECK(listed.front().from == "alice");
      CHECK(listed.front().to == std::vector<std::string>{"bob"});
      REQUIRE(listed.front().state.has_value());
      CHECK_FALSE(listed.front().state->read);
      CHECK(inbox(store, "carol").empty());

      std::string delivered;
      auto read = store.read(as("bob"), sent->message.id, [&](const Message& m) {
        delivered = m.body;
        return mailroom::Result<void>();
      });
      REQUIRE(read.ok());
      CHECK(delivered == "hello");
      REQUIRE(read->state.has_value());
      CHECK_FALSE(read->state->read); // as it was before marking
      CHECK(inbox(store, "bob").empty());
      CHECK(inbox(store, "bob", true).size() == 1);
      auto got = store.get("bob", sent->message.id);
      REQUIRE(got.ok());
      REQUIRE(got->state.has_value());
      CHECK(got->state->read);

      // The sender and strangers see the message without state; neither may read it as theirs.
      auto as_sender = store.get("alice", sent->message.id);
      REQUIRE(as_sender.ok());
      CHECK_FALSE(as_sender->state.has_value());
      auto stranger = store.get("carol", sent->message.id);
      REQUIRE(stranger.ok());
      CHECK_FALSE(stranger->state.has_value());
      auto stranger_read =
          store.read(as("carol"), sent->message.id, [](const Message&) { return mailroom::Result<void>(); });
      REQUIRE_FALSE(stranger_read.ok());
      CHECK(stranger_read.error().code == ErrorCode::not_recipient);
      CHECK(stranger_read.error().message == "mailbox \"carol\" is not a recipient of " + sent->message.id);
      auto missing = store.get("bob", "mr-zzz");
      REQUIRE_FALSE(missing.ok());
      CHECK(missing.error().code == ErrorCode::not_found);
      CHECK(missing.error().message == "message \"mr-zzz\" not found");
    });
  }

  TEST_CASE("a failed delivery does not mark the message read")
  {
    FixedClock clock;
    auto store = open_store(":memory:", clock);
    REQUIRE(mailroom::testing::reach(*store).add_agents({"bob"}).ok());
    auto sent = store->send(message("alice", "bob", "hi"));
    REQUIRE(sent.ok());
    auto read = store->read(as("bob"), sent->message.id, [](const Message&) -> mailroom::Result<void> {
      return mailroom::make_error(ErrorCode::store_error, "stdout closed");
    });
    REQUIRE_FALSE(read.ok());
    CHECK(read.error().message == "stdout closed");
    CHECK(store->count("bob")->unread == 1);
  }

  TEST_CASE("a broadcast read or archived by one recipient stays unread for the others")
  {
    on_both_stores([](SqlStore& store, FixedClock&) {
      REQUIRE(store.add_agents({"human", "coder", "committer", "tester"}).ok());
      auto sent = store.send(message("coder", "@all", "standup"));
      REQUIRE(sent.ok());
      CHECK(sent->recipients == std::vector<std::string>{"committer", "tester"});
      CHECK(sent->message.addressed_to == std::vector<std::string>{"@all"});
      const std::string id = sent->message.id;

      CHECK(*change(store, "committer", id, Change::mark_read) == ChangeOutcome::changed);
      CHECK(*change(store, "committer", id, Change::mark_read) == ChangeOutcome::already);
      CHECK(store.count("committer")->unread == 0);
      CHECK(store.count("tester")->unread == 1);

      CHECK(*change(store, "tester", id, Change::archive) == ChangeOutcome::changed);
      CHECK(*change(store, "tester", id, Change::archive) == ChangeOutcome::already);
      CHECK(inbox(store, "tester").empty());
      CHECK(store.count("tester")->total == 0);
      CHECK(store.count("committer")->total == 1);
      CHECK(*change(store, "tester", id, Change::unarchive) == ChangeOutcome::changed);
      CHECK(*change(store, "tester", id, Change::unarchive) == ChangeOutcome::already);
      CHECK(inbox(store, "tester").size() == 1);

      CHECK(*change(store, "committer", id, Change::mark_unread) == ChangeOutcome::changed);
      CHECK(*change(store, "committer", id, Change::mark_unread) == ChangeOutcome::already);
      CHECK(store.check("committer", 3, std::nullopt)->unread == 1);

      auto stranger = change(store, "human", id, Change::archive);
      REQUIRE_FALSE(stranger.ok());
      CHECK(stranger.error().code == ErrorCode::not_recipient);
      auto sender = change(store, "coder", id, Change::mark_read);
      REQUIRE_FALSE(sender.ok());
      CHECK(sender.error().code == ErrorCode::not_recipient);
      auto missing = change(store, "tester", "mr-000000", Change::mark_read);
      REQUIRE_FALSE(missing.ok());
      CHECK(missing.error().code == ErrorCode::not_found);
    });
  }

  TEST_CASE("inbox order, check, count and mark_all_read agree")
  {
    on_both_stores([](SqlStore& store, FixedClock& clock) {
      REQUIRE(store.add_agents({"bob"}).ok());
      std::vector<std::string> ids;
      for (Priority p : {Priority::low, Priority::normal, Priority::urgent, Priority::normal}) {
        SendRequest request = message("alice", "bob", "m");
        request.priority = p;
        ids.push_back(store.send(request)->message.id);
        clock.advance(1);
      }
      const std::vector<std::string> expected = {ids[2], ids[1], ids[3], ids[0]};
      CHECK(ids_of(inbox(store, "bob")) == expected);
      CHECK(ids_of(inbox(store, "bob", false, 2)) == std::vector<std::string>{ids[2], ids[1]});

      auto check = store.check("bob", 2, std::nullopt);
      REQUIRE(check.ok());
      CHECK(check->unread == 4);
      CHECK(ids_of(check->messages) == std::vector<std::string>{ids[2], ids[1]});
      auto bare = store.check("bob", 0, std::nullopt);
      REQUIRE(bare.ok());
      CHECK(bare->unread == 4);
      CHECK(bare->messages.empty());
      auto nobody = store.check("nobody", 3, std::nullopt);
      REQUIRE(nobody.ok());
      CHECK(nobody->unread == 0);
      CHECK(nobody->messages.empty());
      CHECK(store.count("nobody")->total == 0);

      REQUIRE(change(store, "bob", ids[1], Change::mark_read).ok());
      REQUIRE(change(store, "bob", ids[0], Change::archive).ok());
      auto counts = store.count("bob");
      CHECK(counts->total == 3);
      CHECK(counts->unread == 2);
      CHECK(store.check("bob", 10, std::nullopt)->messages.size() == 2);

      auto marked = store.mark_all_read("bob");
      REQUIRE(marked.ok());
      CHECK(*marked == std::vector<std::string>{ids[2], ids[3]});
      CHECK(store.mark_all_read("bob")->empty());
      CHECK(store.count("bob")->unread == 0);
    });
  }

  TEST_CASE("check cuts bodies to body_bytes and says so")
  {
    FixedClock clock;
    auto store = open_store(":memory:", clock);
    REQUIRE(mailroom::testing::reach(*store).add_agents({"bob"}).ok());
    REQUIRE(store->send(message("alice", "bob", "a body of thirty-one characters")).ok());
    auto cut = store->check("bob", 3, 6);
    REQUIRE(cut.ok());
    REQUIRE(cut->messages.size() == 1);
    CHECK(cut->messages[0].body == "a body");
    CHECK_FALSE(cut->messages[0].body_complete);
    auto whole = store->check("bob", 3, std::nullopt);
    CHECK(whole->messages[0].body == "a body of thirty-one characters");
    CHECK(whole->messages[0].body_complete);
  }

  TEST_CASE("recipients: to wins over cc, duplicates collapse, status lists to then cc")
  {
    FixedClock clock;
    auto store = open_store(":memory:", clock);
    REQUIRE(mailroom::testing::reach(*store).add_agents({"bob", "carol", "dave"}).ok());
    SendRequest request = message("alice", "bob", "x");
    request.to = {"bob", "carol", "bob"};
    request.cc = {"carol", "dave", "dave"};
    auto sent = store->send(request);
    REQUIRE(sent.ok());
    CHECK(sent->recipients == std::vector<std::string>{"bob", "carol", "dave"});
    CHECK(sent->message.to == std::vector<std::string>{"bob", "carol"});
    CHECK(sent->message.cc == std::vector<std::string>{"dave"});
    CHECK(sent->message.addressed_to == std::vector<std::string>{"bob", "carol", "dave"});
    clock.advance(5);
    REQUIRE(change(*store, "carol", sent->message.id, Change::mark_read).ok());

    auto status = mailroom::testing::reach(*store).status(sent->message.id);
    REQUIRE(status.ok());
    const auto& rows = status->deliveries;
    REQUIRE(rows.size() == 3);
    CHECK(rows[0].recipient == "bob");
    CHECK(rows[0].kind == "to");
    CHECK_FALSE(rows[0].read_at.has_value());
    CHECK(rows[1].read_at == clock.now());
    CHECK(rows[2].recipient == "dave");
    CHECK(rows[2].kind == "cc");
    CHECK(status->message.sender_uid == static_cast<std::int64_t>(::getuid()));
  }

  TEST_CASE("unknown, retired and reserved recipients")
  {
    FixedClock clock;
    auto store = open_store(":memory:", clock);
    REQUIRE(mailroom::testing::reach(*store).add_agents({"mayor", "deacon"}).ok());
    auto typo = store->send(message("alice", "mayr", "x"));
    REQUIRE_FALSE(typo.ok());
    CHECK(typo.error().code == ErrorCode::unknown_recipient);
    CHECK(typo.error().message == "unknown recipient \"mayr\"");
    CHECK(typo.error().input == "mayr");
    REQUIRE_FALSE(typo.error().suggestions.empty());
    CHECK(typo.error().suggestions.front() == "mayor");
    CHECK(typo.error().hint == "did you mean \"mayor\"? (register it with: mailroom agents add mayr)");
    CHECK(store->count("mayr")->total == 0);

    CHECK(store->send(message("alice", "human", "x")).ok());
    mailroom::mail::MailPolicy any;
    any.recipients = mailroom::mail::RecipientPolicy::any;
    auto any_store = open_store(":memory:", clock, any);
    CHECK(any_store->send(message("alice", "stranger", "x")).ok());

    REQUIRE(mailroom::testing::reach(*store).remove_agent("deacon").ok());
    CHECK(mailroom::testing::reach(*store).remove_agent("deacon").error().code == ErrorCode::not_found);
    auto retired = store->send(message("alice", "deacon", "x"));
    CHECK(retired.error().code == ErrorCode::unknown_recipient);
    CHECK(retired.error().message == "unknown recipient \"deacon\": the mailbox was retired");
    // Sending did not register alice; deacon is retired; human is never in @all.
    auto lonely = store->send(message("mayor", "@all", "x"));
    REQUIRE_FALSE(lonely.ok());
    CHECK(lonely.error().code == ErrorCode::usage);
    REQUIRE(mailroom::testing::reach(*store).add_agents({"alice"}).ok());
    auto reached = store->send(message("mayor", "@all", "x"));
    REQUIRE(reached.ok());
    CHECK(reached->recipients == std::vector<std::string>{"alice"});

    auto empty_store = open_store(":memory:", clock);
    REQUIRE(mailroom::testing::reach(*empty_store).add_agents({"mayor", "human"}).ok());
    auto nobody = empty_store->send(message("mayor", "@all", "x"));
    REQUIRE_FALSE(nobody.ok());
    CHECK(nobody.error().code == ErrorCode::usage);
    CHECK(nobody.error().message ==
          "no recipients: @all matched no registered mailbox other than the sender");
    CHECK(empty_store->count("human")->total == 0);
    CHECK(*mailroom::testing::reach(*store).add_agents({"deacon", "mayor"}) ==
          std::vector<std::string>{"deacon"});
  }

  TEST_CASE("agents: registration, last seen and unread counts")
  {
    FixedClock clock;
    auto store = open_store(":memory:", clock);
    REQUIRE(mailroom::testing::reach(*store).add_agents({"alice", "bob"}).ok());
    CHECK(mailroom::testing::reach(*store).add_agents({"bob"})->empty());
    clock.advance(10);
    auto sent = store->send(message("alice", "bob", "x"));
    REQUIRE(sent.ok());
    auto agents = mailroom::testing::reach(*store).agents();
    REQUIRE(agents.ok());
    REQUIRE(agents->size() == 2);
    CHECK((*agents)[0].name == "alice");
    CHECK((*agents)[0].last_seen == clock.now()); // sending is presence
    CHECK((*agents)[1].name == "bob");
    CHECK((*agents)[1].unread == 1);
    CHECK_FALSE((*agents)[1].last_seen.has_value());
    clock.advance(10);
    REQUIRE(change(*store, "bob", sent->message.id, Change::archive).ok());
    agents = mailroom::testing::reach(*store).agents();
    CHECK((*agents)[1].last_seen == clock.now());
    CHECK((*agents)[1].unread == 0);
    // touch honours its interval and never registers.
    clock.advance(10);
    REQUIRE(mailroom::testing::reach(*store).touch("bob", 60'000, mailroom::mail::SeenVia::command).ok());
    CHECK(mailroom::testing::reach(*store).mailbox_info("bob")->last_seen == clock.now() - 10);
    REQUIRE(mailroom::testing::reach(*store).touch("bob", 0, mailroom::mail::SeenVia::command).ok());
    CHECK(mailroom::testing::reach(*store).mailbox_info("bob")->last_seen == clock.now());
    REQUIRE(mailroom::testing::reach(*store).touch("zed", 0, mailroom::mail::SeenVia::command).ok());
    CHECK(mailroom::testing::reach(*store).mailbox_info("zed")->state ==
          mailroom::mail::MailboxInfo::State::unknown);
  }

  TEST_CASE("a broadcast to 1,000 mailboxes is one message")
  {
    FixedClock clock;
    auto store = open_store(":memory:", clock);
    std::vector<std::string> names;
    for (int i = 0; i < 1000; ++i) {
      names.push_back("agent-" + std::to_string(i));
    }
    REQUIRE(mailroom::testing::reach(*store).add_agents(names).ok());
    auto sent = store->send(message("boss", "@all", "all hands"));
    REQUIRE(sent.ok());
    CHECK(sent->recipients.size() == 1000);
    CHECK(store->count("agent-999")->unread == 1);
    CHECK(mailroom::testing::reach(*store).status(sent->message.id)->deliveries.size() == 1000);
    CHECK(scalar(database_of(*store), "SELECT count(*) FROM beads") == "1");
  }
}
