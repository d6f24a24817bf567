// gc's verbs for floods of notifications, as operations on a real bead store in memory: send
// --dedup/--supersede (their text, JSON and the exec-less warning), and filtered archive (gc's
// rules, the content filter, the limit, acting for others, dry runs).

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "beads/bead_store.hpp"
#include "ops/archive_matching.hpp"
#include "ops/send.hpp"
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

  World()
  {
    mail::StoreSettings settings;
    settings.path = ":memory:";
    auto made = providers::beads::open_bead_store(settings, policy, clock);
    REQUIRE(made.ok());
    store = std::move(made).value();
    REQUIRE(mailroom::testing::reach(*store).add_agents({"alice", "bob", "carol", "patrol"}).ok());
  }
};

struct As {
  config::Identity me;
  ProviderSlot slot;
  Session session;

  As(World& world, const std::string& name)
      : me{name, config::default_origin()},
        slot(*world.store), session{world.config, world.policy, world.clock, me, world.env, slot}
  {
  }
};

SendResult sent(World& world, const std::string& from, std::vector<std::string> to,
                const std::string& subject, std::optional<std::string> dedup = {},
                std::optional<std::string> supersede = {})
{
  As sender(world, from);
  SendRequest request;
  request.to = std::move(to);
  request.subject = subject;
  request.body = subject.empty() ? "" : "body of " + subject;
  request.dedup = std::move(dedup);
  request.supersede = std::move(supersede);
  world.clock.advance(1000);
  auto result = send(sender.session, request);
  REQUIRE_MESSAGE(result.ok(), (result.ok() ? "" : result.error().message));
  return std::move(result).value();
}

std::string text_of(const SendResult& result)
{
  return to_text(result, render::Style{}).str();
}

Result<ArchiveMatchResult> archive(World& world, const std::string& as, const ArchiveMatchRequest& request)
{
  As caller(world, as);
  return archive_matching(caller.session, request);
}

} // namespace

TEST_SUITE("mailroom::ops streams")
{
  TEST_CASE("send --dedup: gc's words, the JSON's suppressed list, nothing stored when all are suppressed")
  {
    World world;
    const SendResult first = sent(world, "patrol", {"bob"}, "disk 95% full", "disk");
    const std::string first_id = first.receipts.front().message.id;
    const SendResult again = sent(world, "patrol", {"bob"}, "disk 96% full", "disk");
    CHECK(text_of(again) == "Suppressed duplicate of " + first_id + "\n");
    const nlohmann::json doc = to_json(again);
    CHECK(doc["id"].is_null());
    CHECK(doc["thread_id"].is_null());
    CHECK(doc["ids"] == nlohmann::json::array());
    CHECK(doc["suppressed"] == nlohmann::json::parse(R"([{"recipient":"bob","id":")" + first_id + R"("}])"));
    const SendResult wider = sent(world, "patrol", {"bob", "carol"}, "disk 97% full", "disk");
    const std::string wider_id = wider.receipts.front().message.id;
    CHECK(text_of(wider) ==
          "Sent message " + wider_id + " to carol\nSuppressed duplicate of " + first_id + " for bob\n");
    CHECK(to_json(wider)["recipients"] == nlohmann::json::array({"carol"}));
  }

  TEST_CASE("send --supersede: the copies it archived, and its usage errors")
  {
    World world;
    const std::string v1 =
        sent(world, "patrol", {"bob"}, "digest v1", {}, "digest").receipts.front().message.id;
    const SendResult v2 = sent(world, "patrol", {"bob"}, "digest v2", {}, "digest");
    CHECK(text_of(v2) ==
          "Sent message " + v2.receipts.front().message.id + " to bob\nSuperseded " + v1 + " for bob\n");
    CHECK(to_json(v2)["superseded"][0]["id"] == v1);
    As patrol(world, "patrol");
    SendRequest both;
    both.to = {"bob"};
    both.body = "x";
    both.dedup = "a";
    both.supersede = "a";
    CHECK(send(patrol.session, both).error().code == ErrorCode::usage);
    both.supersede.reset();
    both.dedup = "";
    CHECK(send(patrol.session, both).error().message == "--dedup needs a key");
  }

  TEST_CASE("filtered archive: gc's rules are usage errors, nothing changes")
  {
    World world;
    sent(world, "patrol", {"bob"}, "disk full");
    const auto refused = [&](ArchiveMatchRequest request) {
      auto result = archive(world, "bob", request);
      REQUIRE_FALSE(result.ok());
      CHECK(result.error().code == ErrorCode::usage);
      return result.error().message;
    };
    ArchiveMatchRequest base;
    base.filter.from = "patrol";
    CHECK(refused(base) == "--to or --all-recipients is required when using archive filters");
    ArchiveMatchRequest both = base;
    both.to = "bob";
    both.all_recipients = true;
    CHECK(refused(both) == "choose either --to or --all-recipients");
    ArchiveMatchRequest ids = base;
    ids.to = "bob";
    ids.ids = {"mr-1"};
    CHECK(refused(ids) == "message IDs cannot be combined with --to/--from/--subject filters");
    ArchiveMatchRequest bare;
    bare.to = "bob";
    bare.filter.empty_body = true;
    CHECK(refused(bare) ==
          "use --from, --subject-prefix, or --subject-contains to avoid archiving unrelated mail");
    ArchiveMatchRequest zero = base;
    zero.to = "bob";
    zero.limit = "0";
    CHECK(refused(zero) == "--limit must be greater than zero");
    CHECK(bare.selects());
    CHECK_FALSE(ArchiveMatchRequest{}.selects());
    CHECK(world.store->count("bob")->total == 1);
  }

  TEST_CASE("filtered archive: subject filters ignore ASCII case, unread only by default, a limit, a dry run")
  {
    World world;
    const std::string a = sent(world, "patrol", {"bob"}, "DISK full on b1").receipts[0].message.id;
    const std::string b = sent(world, "patrol", {"bob"}, "disk full on b2").receipts[0].message.id;
    const std::string c = sent(world, "patrol", {"bob"}, "Deploy done").receipts[0].message.id;
    const std::string d = sent(world, "alice", {"bob"}, "disk full on b3").receipts[0].message.id;
    const std::string e = sent(world, "patrol", {"bob"}, "disk full, read").receipts[0].message.id;
    As bob(world, "bob");
    REQUIRE(world.store->change(bob.session.actor(), e, mail::Change::mark_read).ok());

    ArchiveMatchRequest request;
    request.to = "bob";
    request.filter.from = "patrol";
    request.filter.subject_prefix = "disk";
    request.dry_run = true;
    auto dry = archive(world, "bob", request);
    REQUIRE(dry.ok());
    REQUIRE(dry->matches.size() == 2);
    CHECK(dry->matches[0].message.id == a);
    CHECK(dry->matches[1].message.id == b);
    CHECK(to_text(*dry, render::Style{}).str() == "Would archive message " + a +
                                                      "\tDISK full on b1\nWould archive message " + b +
                                                      "\tdisk full on b2\n");
    CHECK(world.store->count("bob")->unread == 4); // the dry run changed nothing

    request.dry_run = false;
    request.include_read = true;
    request.limit = "2";
    auto done = archive(world, "bob", request);
    REQUIRE(done.ok());
    CHECK(done->changes.changed == std::vector<std::string>{a, b});
    CHECK(to_text(*done, render::Style{}).str() ==
          "Archived message " + a + "\nArchived message " + b + "\n");
    request.limit.reset();
    request.filter.subject_prefix.reset();
    request.filter.subject_contains = "FULL, READ";
    done = archive(world, "bob", request);
    REQUIRE(done.ok());
    CHECK(done->changes.changed == std::vector<std::string>{e});
    mail::ListQuery inbox;
    inbox.mailbox = "bob";
    inbox.include_read = true;
    std::vector<std::string> left;
    const auto listed = world.store->list(inbox);
    REQUIRE(listed.ok());
    for (const auto& m : listed->messages) {
      left.push_back(m.message.id);
    }
    CHECK(left == std::vector<std::string>{c, d});
    request.filter.subject_contains = "nothing like it";
    done = archive(world, "bob", request);
    REQUIRE(done.ok());
    CHECK(to_text(*done, render::Style{}).str() == "No matching messages\n");
  }

  TEST_CASE("filtered archive of others' mail: every recipient's, acting as the caller")
  {
    World world;
    const std::string empty = sent(world, "patrol", {"bob", "carol"}, "ping").receipts[0].message.id;
    const std::string kept = sent(world, "alice", {"carol"}, "ping").receipts[0].message.id;
    ArchiveMatchRequest request;
    request.all_recipients = true;
    request.filter.from = "patrol";
    auto done = archive(world, "alice", request);
    REQUIRE(done.ok());
    CHECK(to_text(*done, render::Style{}).str() ==
          "Archived message " + empty + " for bob\nArchived message " + empty + " for carol\n");
    const auto status = mailroom::testing::reach(*world.store).status(empty);
    REQUIRE(status.ok());
    for (const mail::DeliveryStatus& d : status->deliveries) {
      CHECK(d.archived_at.has_value());
      CHECK(d.acted_by == std::optional<mail::Mailbox>("alice"));
    }
    CHECK_FALSE(mailroom::testing::reach(*world.store).status(kept)->deliveries[0].archived_at.has_value());
    const nlohmann::json doc = to_json(*done);
    CHECK(doc["matches"].size() == 2);
    CHECK(doc["matches"][1]["recipient"] == "carol");
    CHECK(doc["dry_run"] == false);
  }
}

} // namespace mailroom::ops
