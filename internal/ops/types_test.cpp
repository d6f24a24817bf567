// The type rule (contract "Round 4: decisions after review", Types) and the digest line, decided
// in internal/mail and internal/ops: which built-in type an undeclared one most likely meant (by
// its last part, else by edit distance), the unknown_type notice of a send, and the facts and text
// of `mcp --digest`'s line. On a real bead store in memory.

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "beads/bead_store.hpp"
#include "mail/types.hpp"
#include "ops/digest.hpp"
#include "ops/send.hpp"
#include "ops/types.hpp"
#include "testing/fixed_clock.hpp"
#include "testing/reach.hpp"
#include "util/environment.hpp"

namespace mailroom::ops {

namespace {

struct TypesWorld {
  testing::FixedClock clock;
  std::unique_ptr<mail::Provider> store;
  config::Config config;
  mail::MailPolicy policy;
  util::MapEnvironment env{{}, "/"};

  TypesWorld()
  {
    policy.types = mail::TypeRegistry(std::vector<mail::CustomType>{{"deploy", true}});
    mail::StoreSettings settings;
    settings.path = ":memory:";
    auto made = providers::beads::open_bead_store(settings, policy, clock);
    REQUIRE(made.ok());
    store = std::move(made).value();
    REQUIRE(mailroom::testing::reach(*store).add_agents({"alice", "bob"}).ok());
  }
};

struct TypesCaller {
  config::Identity me;
  ProviderSlot slot;
  Session session;
  std::vector<Notice> notices;

  TypesCaller(TypesWorld& world, const std::string& name)
      : me{name, config::default_origin()},
        slot(*world.store), session{world.config, world.policy, world.clock, me, world.env, slot}
  {
    session.notice = [this](const Notice& notice) { notices.push_back(notice); };
  }
};

SendRequest typed(const std::string& type)
{
  SendRequest request;
  request.to = {"bob"};
  request.subject = "s";
  request.body = "b";
  request.sending.type = type;
  return request;
}

} // namespace

TEST_SUITE("mailroom::ops types and digest")
{
  TEST_CASE("the closest built-in type: by last part first, else by edit distance")
  {
    CHECK(mail::closest_builtin_type("request") == "task_request");
    CHECK(mail::closest_builtin_type("job_request") == "task_request");
    CHECK(mail::closest_builtin_type("response") == "task_response");
    CHECK(mail::closest_builtin_type("result") == "cron_result");
    CHECK(mail::closest_builtin_type("escalate") == "escalation"); // edit distance 3
  }

  TEST_CASE("unknown_type: only for a type neither built in nor declared")
  {
    mail::MailPolicy policy;
    policy.types = mail::TypeRegistry(std::vector<mail::CustomType>{{"deploy", true}});
    CHECK_FALSE(unknown_type_notice(policy, "task_request"));
    CHECK_FALSE(unknown_type_notice(policy, "deploy"));
    const auto notice = unknown_type_notice(policy, "request");
    REQUIRE(notice);
    CHECK(notice->code == "unknown_type");
    CHECK(notice->message ==
          "type \"request\" is neither built in nor declared under [types.request]: sent as a type that "
          "expects no reply; did you mean task_request (expects a reply)?");
    const auto plain = unknown_type_notice(policy, "escalate");
    REQUIRE(plain);
    CHECK(plain->message.find("did you mean escalation?") != std::string::npos);
  }

  TEST_CASE("the type argument's description lists the built-in types by whether they expect a reply")
  {
    const std::string text = type_argument_description();
    CHECK(text.find("A reply is expected for task_request, cron_task;") != std::string::npos);
    CHECK(text.find("none for message, task_response, cron_result, notification, escalation") !=
          std::string::npos);
    CHECK(text.find("unknown_type") != std::string::npos);
  }

  TEST_CASE("send: an undeclared type is stored, told and in the result's warnings; a near one is refused")
  {
    TypesWorld world;
    TypesCaller alice(world, "alice");
    auto sent = send(alice.session, typed("request"));
    REQUIRE(sent.ok());
    REQUIRE(alice.notices.size() == 1);
    CHECK(alice.notices.front().code == "unknown_type");
    const nlohmann::json doc = to_json(*sent);
    REQUIRE(doc.contains("warnings"));
    CHECK(doc["warnings"][0]["code"] == "unknown_type");
    CHECK(send_output_schema()["properties"].contains("warnings"));
    alice.notices.clear();
    REQUIRE(send(alice.session, typed("deploy")).ok());
    CHECK(alice.notices.empty());
    CHECK_FALSE(to_json(*send(alice.session, typed("message"))).contains("warnings"));
    auto near = send(alice.session, typed("task_requst"));
    REQUIRE_FALSE(near.ok());
    CHECK(near.error().code == ErrorCode::usage);
  }

  TEST_CASE("digest: nothing unread, no line; unread and owed, counted in one line")
  {
    CHECK_FALSE(digest_line({0, 0}));
    CHECK(*digest_line({3, 0}) == "mailroom: 3 unread");
    CHECK(*digest_line({3, 1}) == "mailroom: 3 unread (1 request awaits your reply)");
    CHECK(*digest_line({4, 2}) == "mailroom: 4 unread (2 requests await your reply)");
    TypesWorld world;
    TypesCaller alice(world, "alice");
    TypesCaller bob(world, "bob");
    auto none = digest(bob.session);
    REQUIRE(none.ok());
    CHECK(none->unread == 0);
    auto request = send(alice.session, typed("task_request"));
    REQUIRE(request.ok());
    REQUIRE(send(alice.session, typed("message")).ok());
    auto two = digest(bob.session);
    REQUIRE(two.ok());
    CHECK(two->unread == 2);
    CHECK(two->awaiting == 1);
    CHECK(bob.notices.empty());
    // A message a wait is handing over as read is left out, and so is what it owed.
    auto taking = digest(bob.session, {request->receipts.front().message.id});
    REQUIRE(taking.ok());
    CHECK(taking->unread == 1);
    CHECK(taking->awaiting == 0);
    // An urgent request is listed first by the hook, and still awaits a reply.
    SendRequest urgent = typed("task_request");
    urgent.sending.urgent = true;
    REQUIRE(send(alice.session, urgent).ok());
    auto three = digest(bob.session);
    REQUIRE(three.ok());
    CHECK(three->unread == 3);
    CHECK(three->awaiting == 2);
  }
}

} // namespace mailroom::ops
