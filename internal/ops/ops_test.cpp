// The operations run directly, without CLI11, on a real bead store in memory: their decisions
// (whose mail, id prefixes, filters, defaults, presence, notices) and their result shapes.

#include <map>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "beads/bead_store.hpp"
#include "ops/check.hpp"
#include "ops/count.hpp"
#include "ops/errors.hpp"
#include "ops/inbox.hpp"
#include "ops/peek.hpp"
#include "ops/read.hpp"
#include "ops/search.hpp"
#include "ops/sent.hpp"
#include "ops/thread.hpp"
#include "testing/fixed_clock.hpp"
#include "testing/reach.hpp"
#include "util/environment.hpp"

namespace mailroom::ops {

namespace {

// A session acting as `name` on one in-memory store, recording the notices it is told.
struct World {
  testing::FixedClock clock;
  std::unique_ptr<mail::Provider> store;
  config::Config config;
  mail::MailPolicy policy;
  util::MapEnvironment env{{}, "/"};

  World()
  {
    mail::StoreSettings settings;
    settings.path = ":memory:";
    auto made = providers::beads::open_bead_store(settings, policy, clock);
    REQUIRE(made.ok());
    store = std::move(made).value();
    REQUIRE(mailroom::testing::reach(*store).add_agents({"alice", "bob", "carol"}).ok());
  }

  mail::MessageId send(const std::string& from, std::vector<std::string> to, const std::string& subject,
                       const std::string& body = "body")
  {
    mail::SendRequest request;
    request.from = from;
    request.to = std::move(to);
    request.subject = subject;
    request.body = body;
    auto receipt = store->send(request);
    REQUIRE(receipt.ok());
    clock.advance(1000);
    return receipt->message.id;
  }
};

struct As {
  config::Identity me;
  ProviderSlot slot;
  Session session;
  std::vector<Notice> notices;

  As(World& world, const std::string& name)
      : me{name, config::default_origin()},
        slot(*world.store), session{world.config, world.policy, world.clock, me, world.env, slot}
  {
    session.presence = mail::SeenVia::command;
    session.notice = [this](const Notice& notice) { notices.push_back(notice); };
  }
};

// Whether every key `schema` requires is in `doc` (and, for the messages, in each message).
void check_required(const nlohmann::json& schema, const nlohmann::json& doc)
{
  for (const auto& key : schema.at("required")) {
    CHECK_MESSAGE(doc.contains(key.get<std::string>()), key);
  }
  if (doc.contains("messages") && schema["properties"]["messages"].contains("items")) {
    for (const auto& message : doc["messages"]) {
      check_required(schema["properties"]["messages"]["items"], message);
    }
  }
}

} // namespace

TEST_SUITE("mailroom::ops reads")
{
  TEST_CASE("count and check: the caller's mail, another's as a view that records no presence")
  {
    World world;
    world.send("alice", {"bob"}, "one");
    world.send("alice", {"bob"}, "two");
    As bob(world, "bob");
    auto counted = count(bob.session, CountRequest{});
    REQUIRE(counted.ok());
    CHECK(counted->mailbox == "bob");
    CHECK(counted->counts.unread == 2);
    CHECK(bob.session.presence.has_value());
    CHECK(to_json(*counted).dump() == R"({"mailbox":"bob","schema_version":1,"total":2,"unread":2})");
    CHECK(to_text(*counted, {}) == "2 total, 2 unread for bob\n");
    check_required(count_output_schema(), to_json(*counted));

    As alice(world, "alice");
    auto view = count(alice.session, CountRequest{"bob"});
    REQUIRE(view.ok());
    CHECK(view->counts.total == 2);
    CHECK_FALSE(alice.session.presence.has_value());

    auto group = count(alice.session, CountRequest{"@all"});
    REQUIRE_FALSE(group.ok());
    CHECK(group.error().code == ErrorCode::usage);

    auto checked = check(bob.session, CheckRequest{std::nullopt, "1", true});
    REQUIRE(checked.ok());
    CHECK(checked->found.unread == 2);
    CHECK(checked->found.messages.size() == 1);
    check_required(check_output_schema(), to_json(*checked));
    auto predicate = check(bob.session, CheckRequest{std::nullopt, "3", false});
    REQUIRE(predicate.ok());
    CHECK(predicate->found.messages.empty()); // the predicate loads no message
    CHECK(to_text(*predicate, {}) == "2 unread message(s) for bob\n");
    CHECK(to_text(*check(alice.session, CheckRequest{}), {}).empty());
    auto bad = check(bob.session, CheckRequest{std::nullopt, "0", true});
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().code == ErrorCode::usage);
  }

  TEST_CASE("inbox: defaults, filters resolved, limit and has_more, previews only when asked")
  {
    World world;
    const std::string long_body(10000, 'x');
    world.send("alice", {"bob"}, "first", long_body);
    world.send("carol", {"bob"}, "second");
    world.send("alice", {"bob"}, "third");
    As bob(world, "bob");

    auto all = inbox(bob.session, InboxRequest{});
    REQUIRE(all.ok());
    CHECK(all->listed.messages.size() == 3);
    CHECK(all->listed.messages.front().message.body == long_body); // whole bodies by default
    const nlohmann::json doc = to_json(*all);
    CHECK(doc["unread"] == 3);
    CHECK(doc["has_more"] == false);
    check_required(inbox_output_schema(), doc);

    InboxRequest previews;
    previews.previews = true;
    auto cut = inbox(bob.session, previews);
    REQUIRE(cut.ok());
    CHECK(cut->listed.messages.front().message.body.size() < long_body.size());

    InboxRequest from_alice;
    from_alice.filters.from = "alice";
    from_alice.limit.limit = 1;
    auto filtered = inbox(bob.session, from_alice);
    REQUIRE(filtered.ok());
    CHECK(filtered->listed.messages.size() == 1);
    CHECK(filtered->listed.total == 2);
    CHECK(to_json(*filtered)["has_more"] == true);
    CHECK(to_text(*filtered, {}).str().find("Showing 1 of 2; --limit to see more\n") != std::string::npos);

    InboxRequest nobody;
    nobody.filters.from = "human"; // a name the read side's typo check passes, with no mail from it
    auto none = inbox(bob.session, nobody);
    REQUIRE(none.ok());
    CHECK(to_text(*none, {}) == "No messages for bob match the filters\n");
    CHECK(to_text(*inbox(bob.session, InboxRequest{"carol"}), {}) == "No unread messages for carol\n");

    InboxRequest typo;
    typo.filters.priority = "urgentt";
    auto bad = inbox(bob.session, typo);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().code == ErrorCode::usage);
  }

  TEST_CASE("a thread filter and the thread operation take a message id prefix")
  {
    World world;
    const std::string first = world.send("alice", {"bob"}, "topic");
    world.send("carol", {"bob"}, "other");
    As bob(world, "bob");
    InboxRequest in_thread;
    in_thread.filters.thread = first.substr(0, first.size() - 2);
    auto listed = inbox(bob.session, in_thread);
    REQUIRE(listed.ok());
    REQUIRE(listed->listed.messages.size() == 1);
    CHECK(listed->listed.messages.front().message.id == first);

    auto conversation = thread(bob.session, ThreadRequest{first.substr(0, first.size() - 2)});
    REQUIRE(conversation.ok());
    CHECK(conversation->thread.messages.size() == 1);
    check_required(thread_output_schema(), to_json(*conversation));

    auto unknown = thread(bob.session, ThreadRequest{"no-such-thread"});
    REQUIRE_FALSE(unknown.ok());
    CHECK(unknown.error().code == ErrorCode::not_found);
    world.config.compat_gc.value = true; // gc's answer: an empty thread
    auto empty = thread(bob.session, ThreadRequest{"no-such-thread"});
    REQUIRE(empty.ok());
    CHECK(to_text(*empty, {}) == "No messages in thread no-such-thread\n");
  }

  TEST_CASE("sent carries summaries; search needs words and echoes its query")
  {
    World world;
    world.send("alice", {"bob", "carol"}, "deploy failed");
    world.send("alice", {"bob"}, "lunch");
    As alice(world, "alice");
    auto mine = sent(alice.session, SentRequest{});
    REQUIRE(mine.ok());
    const nlohmann::json doc = to_json(*mine);
    REQUIRE(doc["messages"].size() == 2);
    CHECK(doc["messages"][0]["subject"] == "lunch"); // newest first
    CHECK(doc["messages"][1]["summary"]["recipients"] == 2);
    check_required(sent_output_schema(), doc);

    auto missing = search(alice.session, SearchRequest{});
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().code == ErrorCode::usage);
    SearchRequest deploy;
    deploy.words = {"deploy", "failed"};
    auto found = search(alice.session, deploy);
    REQUIRE(found.ok());
    CHECK(found->listed.messages.size() == 1);
    CHECK(to_json(*found)["query"] == "deploy failed");
    check_required(search_output_schema(), to_json(*found));
  }

  TEST_CASE("read marks read only after its answer is written; a failed write keeps it unread")
  {
    World world;
    const std::string id = world.send("alice", {"bob"}, "hello");
    As bob(world, "bob");
    const ReadDeliver failing = [](const ReadResult&) -> Result<void> {
      return make_error(ErrorCode::store_error, "write failed");
    };
    auto failed = read(bob.session, ReadRequest{id.substr(0, id.size() - 1), std::nullopt}, failing);
    REQUIRE_FALSE(failed.ok());
    CHECK(world.store->count("bob")->unread == 1);

    nlohmann::json written;
    const ReadDeliver deliver = [&](const ReadResult& result) -> Result<void> {
      written = to_json(result);
      return {};
    };
    auto done = read(bob.session, ReadRequest{id, std::nullopt}, deliver);
    REQUIRE(done.ok());
    CHECK(written["message"]["read"] == true); // the state after the read
    CHECK(world.store->count("bob")->unread == 0);
    check_required(read_output_schema(), written);

    // The sender who is not a recipient only sees it, and is told so.
    As alice(world, "alice");
    REQUIRE(read(alice.session, ReadRequest{id, std::nullopt}, deliver).ok());
    REQUIRE(alice.notices.size() == 1);
    CHECK(alice.notices.front().code == "sender_read");

    // An operator acting for a recipient is announced.
    const std::string other = world.send("alice", {"carol"}, "for carol");
    As bob2(world, "bob");
    REQUIRE(read(bob2.session, ReadRequest{other, std::string("carol")}, deliver).ok());
    REQUIRE(bob2.notices.size() == 1);
    CHECK(bob2.notices.front().code == "acting_for");
    CHECK(bob2.notices.front().message == "acting for carol");
  }

  TEST_CASE("peek changes nothing; ambiguous prefixes and unknown ids are typed errors")
  {
    World world;
    const std::string id = world.send("alice", {"bob"}, "hello");
    As bob(world, "bob");
    auto seen = peek(bob.session, PeekRequest{id});
    REQUIRE(seen.ok());
    CHECK(world.store->count("bob")->unread == 1);
    check_required(peek_output_schema(), to_json(*seen));
    auto unknown = peek(bob.session, PeekRequest{"mr-nothing"});
    REQUIRE_FALSE(unknown.ok());
    CHECK(unknown.error().code == ErrorCode::not_found);
  }

  TEST_CASE("an error has one object and one text, on every surface")
  {
    const Error error = make_error(ErrorCode::usage, "bad \x1b[31mthing", "try again");
    const nlohmann::json doc = error_to_json(error);
    check_required(error_output_schema(), doc);
    CHECK(doc["error"]["exit_code"] == 2);
    CHECK(error_to_text("inbox", error) == "mailroom inbox: bad ^[[31mthing\nhint: try again\n");
  }
}

} // namespace mailroom::ops
