// MCP resources and subscriptions: URIs, which events may change a resource, the notification
// frames, and, on a real bead store (a temporary file, a pool of connections as the server runs
// them), a resource read as the tool's JSON and a subscription that hears a change made on another
// connection and stays quiet for a change it cannot see.

#include <condition_variable>
#include <filesystem>
#include <mutex>

#include <doctest/doctest.h>

#include "beads/bead_store.hpp"
#include "mcp/resources.hpp"
#include "mcp/subscriptions.hpp"
#include "testing/fixed_clock.hpp"
#include "testing/reach.hpp"
#include "util/environment.hpp"

namespace mailroom::mcp {

namespace {

mail::Event event(mail::EventType type, std::string id, std::string mailbox, std::string actor = "bob")
{
  mail::Event e;
  e.type = type;
  e.message_id = std::move(id);
  e.mailbox = std::move(mailbox);
  e.actor = std::move(actor);
  return e;
}

// A server's environment on a fresh bead store with alice, bob and carol.
struct Store {
  std::filesystem::path dir;
  mailroom::testing::FixedClock clock;
  config::Config config;
  mail::MailPolicy policy;
  util::MapEnvironment env{{}, "/"};
  std::unique_ptr<ConnectionPool> pool;
  std::unique_ptr<mail::Provider> own; // the test's connection: "another process"
  ToolEnv tools;

  Store()
  {
    std::string pattern = (std::filesystem::temp_directory_path() / "mailroom-res-test.XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    dir = pattern;
    own = open(mail::Access::create);
    REQUIRE(mailroom::testing::reach(*own).add_agents({"alice", "bob", "carol"}).ok());
    pool = std::make_unique<ConnectionPool>(
        [this]() -> Result<std::unique_ptr<mail::Provider>> { return open(); });
    tools.me = config::Identity{"alice", config::default_origin()};
    tools.config = &config;
    tools.policy = &policy;
    tools.clock = &clock;
    tools.environment = &env;
    tools.connections = pool.get();
  }
  ~Store()
  {
    pool.reset();
    own.reset();
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
  std::unique_ptr<mail::Provider> open(mail::Access access = mail::Access::write)
  {
    mail::StoreSettings settings;
    settings.path = (dir / "mail.db").string();
    settings.access = access;
    auto made = providers::beads::open_bead_store(settings, policy, clock);
    REQUIRE(made.ok());
    return std::move(made).value();
  }
  mail::MessageId send(const std::string& from, const std::string& to, const std::string& body)
  {
    mail::SendRequest request;
    request.from = from;
    request.to = {to};
    request.body = body;
    auto receipt = own->send(request);
    REQUIRE(receipt.ok());
    return receipt->message.id;
  }
};

// What a Subscriptions object wrote, for a test to wait on.
struct Written {
  std::mutex mutex;
  std::condition_variable cv;
  std::vector<json> messages;
  Write writer()
  {
    return [this](const json& message) {
      std::lock_guard lock(mutex);
      messages.push_back(message);
      cv.notify_all();
    };
  }
  // Waits until `count` messages were written (a generous bound: a hang fails, nothing is timed).
  std::vector<json> at_least(std::size_t count)
  {
    std::unique_lock lock(mutex);
    REQUIRE(cv.wait_for(lock, std::chrono::seconds(20), [&] { return messages.size() >= count; }));
    return messages;
  }
};

} // namespace

TEST_SUITE("mailroom::mcp::resources")
{
  TEST_CASE("resource URIs: the inbox, message and thread templates, ids percent-decoded")
  {
    CHECK(parse_resource_uri("mailroom://inbox") == ResourceRef{ResourceKind::inbox, ""});
    CHECK(parse_resource_uri("mailroom://inbox/rig%2Fbob") == ResourceRef{ResourceKind::inbox, "rig/bob"});
    CHECK(parse_resource_uri("mailroom://message/mr-3f2a") == ResourceRef{ResourceKind::message, "mr-3f2a"});
    CHECK(parse_resource_uri("mailroom://thread/thread-%41b") ==
          ResourceRef{ResourceKind::thread, "thread-Ab"});
    for (const char* none : {"mailroom://", "mailroom://inbox/", "mailroom://message/",
                             "mailroom://message/a/b", "mailroom://message/a%2Fb", "mailroom://message/a%0Ab",
                             "mailroom://message/a%4", "mailroom://message/a%zz", "mailroom://message/a?x=1",
                             "mailroom://outbox/a", "file:///inbox", "mailroom://INBOX", "mailroom:inbox"}) {
      CAPTURE(none);
      CHECK_FALSE(parse_resource_uri(none).has_value());
    }
  }

  TEST_CASE("the lists: the inbox, two templates, the other mailboxes' inbox only under --open-views")
  {
    CHECK(resource_list().size() == 1);
    CHECK(resource_list()[0]["uri"] == "mailroom://inbox");
    CHECK(resource_templates(false).size() == 2);
    CHECK(resource_templates(true).size() == 3);
    CHECK(resource_templates(true)[2]["uriTemplate"] == "mailroom://inbox/{mailbox}");
    for (const json& t : resource_templates(true)) {
      CHECK(t["mimeType"] == "application/json");
    }
  }

  TEST_CASE("which events may change a resource")
  {
    WatchedView inbox{ResourceKind::inbox, "alice", {}};
    CHECK(may_change(inbox, event(mail::EventType::sent, "mr-1", "alice")));
    CHECK(may_change(inbox, event(mail::EventType::read, "mr-1", "alice", "alice")));
    CHECK(may_change(inbox, event(mail::EventType::request_state, "mr-1", "alice")));
    CHECK_FALSE(may_change(inbox, event(mail::EventType::sent, "mr-1", "bob", "alice")));
    CHECK_FALSE(may_change(inbox, event(mail::EventType::schedule_fired, "", "alice")));
    WatchedView message{ResourceKind::message, "alice", {"mr-1"}};
    CHECK(may_change(message, event(mail::EventType::acked, "mr-1", "bob")));
    CHECK_FALSE(may_change(message, event(mail::EventType::sent, "mr-2", "alice")));
    WatchedView thread{ResourceKind::thread, "alice", {"mr-1", "mr-2"}};
    CHECK(may_change(thread, event(mail::EventType::archived, "mr-2", "carol")));
    CHECK(may_change(thread, event(mail::EventType::sent, "mr-9", "carol"))); // perhaps a reply in it
    CHECK_FALSE(may_change(thread, event(mail::EventType::read, "mr-9", "carol")));
    // Told before the read: only new mail to an inbox's own mailbox.
    CHECK(surely_changes(inbox, event(mail::EventType::sent, "mr-1", "alice")));
    CHECK_FALSE(surely_changes(inbox, event(mail::EventType::read, "mr-1", "alice")));
    CHECK_FALSE(surely_changes(inbox, event(mail::EventType::sent, "mr-1", "bob")));
    CHECK_FALSE(surely_changes(thread, event(mail::EventType::sent, "mr-9", "alice")));
  }

  TEST_CASE("a read's view names the mailbox and the messages it shows")
  {
    const json thread{{"messages", json::array({json{{"id", "mr-1"}}, json{{"id", "mr-2"}}})}};
    CHECK(watched_view(ResourceRef{ResourceKind::thread, "mr-1"}, "alice", thread).messages ==
          std::set<std::string>{"mr-1", "mr-2"});
    const json message{{"message", json{{"id", "mr-3f2a0000"}}}};
    CHECK(watched_view(ResourceRef{ResourceKind::message, "mr-3f"}, "alice", message).messages ==
          std::set<std::string>{"mr-3f2a0000"});
    CHECK(watched_view(ResourceRef{ResourceKind::inbox, ""}, "alice", json()).mailbox == "alice");
    CHECK(watched_view(ResourceRef{ResourceKind::inbox, "bob"}, "alice", json()).mailbox == "bob");
  }

  TEST_CASE("the notification frames of both eras")
  {
    const json legacy = updated_notification("mailroom://inbox", nullptr);
    CHECK(legacy == json::parse(R"({"jsonrpc":"2.0","method":"notifications/resources/updated",
                                   "params":{"uri":"mailroom://inbox"}})"));
    const json modern = updated_notification("mailroom://inbox", "listen:1");
    CHECK(modern["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == "listen:1");
    const json ack = acknowledged_notification(7, {"mailroom://inbox"});
    CHECK(ack == json::parse(R"({"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged",
      "params":{"_meta":{"io.modelcontextprotocol/subscriptionId":7},
                "notifications":{"resourceSubscriptions":["mailroom://inbox"]}}})"));
    CHECK(acknowledged_notification(8, {})["params"]["notifications"] == json::object());
  }

  TEST_CASE("a resource reads as its tool's structuredContent; a missing one is not_found")
  {
    Store store;
    const mail::MessageId id = store.send("bob", "alice", "hello");
    const ResourceRead inbox = read_resource(store.tools, ResourceRef{});
    REQUIRE(inbox.outcome == ResourceRead::Outcome::found);
    CHECK(inbox.structured["mailbox"] == "alice");
    CHECK(inbox.structured["messages"][0]["id"] == id);
    CHECK(inbox.structured["has_more"] == false);
    const ResourceRead message = read_resource(store.tools, ResourceRef{ResourceKind::message, id});
    REQUIRE(message.outcome == ResourceRead::Outcome::found);
    CHECK(message.structured["message"]["body"] == "hello");
    CHECK(message.structured["message"]["read"] == false); // a resource read marks nothing
    CHECK(read_resource(store.tools, ResourceRef{ResourceKind::thread, id}).structured["messages"].size() ==
          1);
    CHECK(read_resource(store.tools, ResourceRef{ResourceKind::message, "mr-ffffffff"}).outcome ==
          ResourceRead::Outcome::not_found);
    const ResourceRead other = read_resource(store.tools, ResourceRef{ResourceKind::inbox, "bob"});
    CHECK(other.outcome == ResourceRead::Outcome::failed);
    CHECK(other.structured["error"]["code"] == "usage"); // another mailbox needs --open-views
    store.tools.open_views = true;
    CHECK(read_resource(store.tools, ResourceRef{ResourceKind::inbox, "bob"}).outcome ==
          ResourceRead::Outcome::found);
    CHECK(read_digest(inbox) !=
          read_digest(read_resource(store.tools, ResourceRef{ResourceKind::inbox, "bob"})));
    CHECK(read_digest(inbox) == read_digest(read_resource(store.tools, ResourceRef{})));
  }

  TEST_CASE("a subscription hears a change committed on another connection, not one it cannot see")
  {
    Store store;
    Written written;
    Subscriptions subscriptions(store.tools);
    subscriptions.attach(written.writer());
    const ResourceRead now = read_resource(store.tools, ResourceRef{});
    REQUIRE(subscriptions.subscribe("mailroom://inbox", ResourceRef{}, now).ok());
    REQUIRE(subscriptions.listen(json("listen:1"), {"mailroom://inbox", "mailroom://message/mr-none", "x:y"})
                .ok());
    const std::vector<json> ack = written.at_least(1);
    CHECK(ack[0] == acknowledged_notification("listen:1", {"mailroom://inbox"}));
    // Mail to bob is not in alice's inbox; the next mail to alice is, and its notifications (one
    // per subscriber) are the only ones: the earlier change was read first and showed nothing new.
    store.send("alice", "bob", "not yours");
    store.send("bob", "alice", "yours");
    const std::vector<json> after = written.at_least(3);
    CHECK(after.size() == 3);
    CHECK(after[1] == updated_notification("mailroom://inbox", nullptr));
    CHECK(after[2] == updated_notification("mailroom://inbox", "listen:1"));
    subscriptions.cancel(json("listen:1"));
    subscriptions.unsubscribe("mailroom://inbox");
    CHECK(subscriptions.stop(std::chrono::seconds(10)));
  }
}

} // namespace mailroom::mcp
