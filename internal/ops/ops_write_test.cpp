// The writing operations run directly, without CLI11, on a real bead store in memory: send (one
// stored message, or one per recipient), reply, the per-id changes and the operator's views.

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "beads/bead_store.hpp"
#include "ops/agents.hpp"
#include "ops/change.hpp"
#include "ops/send.hpp"
#include "ops/views.hpp"
#include "ops/wait.hpp"
#include "testing/fixed_clock.hpp"
#include "testing/reach.hpp"
#include "util/environment.hpp"

namespace mailroom::ops {

namespace {

struct Store {
  testing::FixedClock clock;
  std::unique_ptr<mail::Provider> store;
  config::Config config;
  mail::MailPolicy policy;
  util::MapEnvironment env{{}, "/"};

  Store()
  {
    mail::StoreSettings settings;
    settings.path = ":memory:";
    auto made = providers::beads::open_bead_store(settings, policy, clock);
    REQUIRE(made.ok());
    store = std::move(made).value();
    REQUIRE(mailroom::testing::reach(*store).add_agents({"alice", "bob", "carol"}).ok());
  }
};

struct Caller {
  config::Identity me;
  ProviderSlot slot;
  Session session;
  std::vector<Notice> notices;

  Caller(Store& world, const std::string& name)
      : me{name, config::default_origin()},
        slot(*world.store), session{world.config, world.policy, world.clock, me, world.env, slot}
  {
    session.notice = [this](const Notice& notice) { notices.push_back(notice); };
  }
};

void check_required(const nlohmann::json& schema, const nlohmann::json& doc)
{
  for (const auto& key : schema.at("required")) {
    CHECK_MESSAGE(doc.contains(key.get<std::string>()), key);
  }
}

SendRequest to(std::vector<std::string> names, std::string subject)
{
  SendRequest request;
  request.to = std::move(names);
  request.subject = std::move(subject);
  request.body = "body";
  return request;
}

} // namespace

TEST_SUITE("mailroom::ops writes")
{
  TEST_CASE("send: typed arguments checked before anything is stored; one receipt, its JSON and text")
  {
    Store world;
    Caller alice(world, "alice");
    SendRequest bad = to({"bob"}, "x");
    bad.sending.priority = "loud";
    auto refused = send(alice.session, bad);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == ErrorCode::usage);
    SendRequest nobody = to({}, "x");
    nobody.usage = "usage: …";
    auto missing = send(alice.session, nobody);
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().hint == "usage: …");
    CHECK(world.store->count("bob")->total == 0);

    auto sent = send(alice.session, to({"bob", "carol"}, "hello"));
    REQUIRE(sent.ok());
    REQUIRE(sent->receipts.size() == 1); // one stored message for both
    const nlohmann::json doc = to_json(*sent);
    CHECK(doc["recipients"] == nlohmann::json::array({"bob", "carol"}));
    CHECK(doc["replayed"] == false);
    check_required(send_output_schema(), doc);
    CHECK(to_text(*sent, {}).str().rfind(
              "Sent message " + sent->receipts.front().message.id + " to bob, carol\n", 0) == 0);

    // `send bob carol BODY`: carol names a mailbox, so it was not meant as the subject.
    SendRequest misrouted = to({"bob"}, "carol");
    misrouted.subject_argument_of = "bob";
    auto refused_subject = send(alice.session, misrouted);
    REQUIRE_FALSE(refused_subject.ok());
    CHECK(refused_subject.error().hint == "to send to several, use --to bob --to carol");
  }

  TEST_CASE("send: an idempotency key from the environment replays; an invalid TRACEPARENT is a notice")
  {
    Store world;
    world.env = util::MapEnvironment({{"MAILROOM_IDEMPOTENCY_KEY", "k1"}, {"TRACEPARENT", "junk"}}, "/");
    Caller alice(world, "alice");
    auto first = send(alice.session, to({"bob"}, "once"));
    REQUIRE(first.ok());
    auto again = send(alice.session, to({"bob"}, "once"));
    REQUIRE(again.ok());
    CHECK(again->receipts.front().replayed);
    CHECK(again->receipts.front().message.id == first->receipts.front().message.id);
    CHECK(to_text(*again, {}).str().find("(idempotency key k1)") != std::string::npos);
    REQUIRE_FALSE(alice.notices.empty());
    CHECK(alice.notices.front().code == "invalid_traceparent");
  }

  TEST_CASE("reply: to the sender by an id prefix, in the same thread")
  {
    Store world;
    Caller alice(world, "alice");
    auto sent = send(alice.session, to({"bob"}, "question"));
    REQUIRE(sent.ok());
    const std::string id = sent->receipts.front().message.id;
    Caller bob(world, "bob");
    ReplyRequest answer;
    answer.id = id.substr(0, id.size() - 1);
    answer.body = "answer";
    auto replied = reply(bob.session, answer);
    REQUIRE(replied.ok());
    CHECK(replied->reply_to == id);
    CHECK(replied->receipt.recipients == std::vector<mail::Mailbox>{"alice"});
    const nlohmann::json doc = to_json(*replied);
    CHECK(doc["reply_to"] == id);
    CHECK(doc["thread_id"] == sent->receipts.front().message.thread_id);
    check_required(reply_output_schema(), doc);
    CHECK(to_text(*replied, {}).str().rfind("Replied to " + id, 0) == 0);
  }

  TEST_CASE("the per-id changes: each id reported in order, failures collected, one id's error is the error")
  {
    Store world;
    Caller alice(world, "alice");
    const std::string first = send(alice.session, to({"bob"}, "a"))->receipts.front().message.id;
    const std::string second = send(alice.session, to({"bob"}, "b"))->receipts.front().message.id;
    Caller bob(world, "bob");
    std::vector<std::string> reported;
    const ChangeReport report = [&](const std::string& typed, const std::string&,
                                    const Result<mail::ChangeOutcome>&) {
      reported.push_back(typed);
      return Result<void>();
    };
    auto one =
        change(bob.session, ChangeRequest{{"mr-nothing"}, mail::Change::archive, std::nullopt}, report);
    REQUIRE_FALSE(one.ok());
    CHECK(one.error().code == ErrorCode::not_found);

    auto several =
        change(bob.session, ChangeRequest{{first, "mr-nothing", second}, mail::Change::archive, std::nullopt},
               report);
    REQUIRE(several.ok());
    CHECK(reported == std::vector<std::string>{first, "mr-nothing", second});
    CHECK(several->changed == std::vector<std::string>{first, second});
    CHECK(several->worst == ExitCode::not_found);
    const nlohmann::json doc = to_json(*several);
    CHECK(doc["ok"] == false);
    CHECK(doc["failed"][0]["code"] == "not_found");
    check_required(change_output_schema(), doc);
    CHECK(world.store->count("bob")->total == 0);

    auto again = change(bob.session, ChangeRequest{{first}, mail::Change::archive, std::nullopt}, report);
    REQUIRE(again.ok());
    CHECK(again->already == std::vector<std::string>{first});

    // A failed write after a change names what changed.
    const ChangeReport failing = [](const std::string&, const std::string&,
                                    const Result<mail::ChangeOutcome>&) {
      return Result<void>(make_error(ErrorCode::store_error, "broken pipe"));
    };
    auto unwritten =
        change(bob.session, ChangeRequest{{first}, mail::Change::unarchive, std::nullopt}, failing);
    REQUIRE_FALSE(unwritten.ok());
    CHECK(unwritten.error().message == "changed " + first + " but broken pipe");
  }

  TEST_CASE("mark_all_read, status, trace, peers and team")
  {
    Store world;
    Caller alice(world, "alice");
    const std::string id = send(alice.session, to({"bob"}, "a"))->receipts.front().message.id;
    Caller bob(world, "bob");
    auto marked = mark_all_read(bob.session);
    REQUIRE(marked.ok());
    CHECK(marked->ids == std::vector<mail::MessageId>{id});
    CHECK(to_text(*marked, {}) == "Marked 1 message(s) read for bob\n");
    CHECK(to_text(*mark_all_read(bob.session), {}) == "No unread messages for bob\n");

    auto delivery = status(alice.session, StatusRequest{id.substr(0, id.size() - 1)});
    REQUIRE(delivery.ok());
    const nlohmann::json doc = to_json(*delivery);
    CHECK(doc["recipients"][0]["recipient"] == "bob");
    CHECK(doc["recipients"][0]["read_at"].is_string());
    check_required(status_output_schema(), doc);

    auto traced = trace(alice.session, TraceRequest{id});
    REQUIRE(traced.ok());
    CHECK(traced->trace.messages.size() == 1);
    check_required(trace_output_schema(), to_json(*traced));
    auto untraced = trace(alice.session, TraceRequest{"nothing"});
    REQUIRE_FALSE(untraced.ok());
    CHECK(untraced.error().message == "no trace or message \"nothing\"");

    auto channels = peers(alice.session, PeersRequest{});
    REQUIRE(channels.ok());
    check_required(peers_output_schema(), to_json(*channels));
    Caller carol(world, "carol");
    auto none = peers(carol.session, PeersRequest{});
    REQUIRE(none.ok());
    CHECK(to_text(*none, {}) == "No peers for carol\n");

    auto everyone = team(alice.session, TeamRequest{});
    REQUIRE(everyone.ok());
    check_required(team_output_schema(), to_json(*everyone));
    CHECK(to_json(*everyone)["mailboxes"].size() >= 3);

    auto registered = agents(alice.session, AgentsRequest{});
    REQUIRE(registered.ok());
    CHECK(registered->agents.size() == 3);
    check_required(agents_output_schema(), to_json(*registered));
  }

  TEST_CASE(
      "wait: found at once; read takes it only when its answer is written; a stopped wait marks nothing")
  {
    Store world;
    Caller alice(world, "alice");
    const std::string id = send(alice.session, to({"bob"}, "job"))->receipts.front().message.id;
    Caller bob(world, "bob");
    std::vector<nlohmann::json> written;
    const WaitDeliver deliver = [&](const WaitResult& found) -> Result<void> {
      written.push_back(to_json(found));
      return {};
    };
    auto seen = wait(bob.session, WaitRequest{}, deliver);
    REQUIRE(seen.ok());
    CHECK(seen->outcome.end == mail::WaitEnd::found);
    REQUIRE(written.size() == 1);
    CHECK(written[0]["message"]["id"] == id);
    CHECK(written[0]["outcome"] == "found");
    check_required(wait_output_schema(), written[0]);
    CHECK(world.store->count("bob")->unread == 1); // a plain wait changes nothing

    // Stopped before it could write: nothing is marked read.
    std::stop_source cancel;
    bob.session.stop = cancel.get_token();
    cancel.request_stop();
    WaitRequest take;
    take.read = true;
    auto stopped = wait(bob.session, take, deliver);
    CHECK((!stopped.ok() || stopped->outcome.end == mail::WaitEnd::interrupted));
    CHECK(written.size() == 1);
    CHECK(world.store->count("bob")->unread == 1);

    bob.session.stop = {};
    written.clear();
    auto taken = wait(bob.session, take, deliver);
    REQUIRE(taken.ok());
    REQUIRE(written.size() == 1);
    CHECK(written[0]["message"]["read"] == true);
    CHECK(world.store->count("bob")->unread == 0);

    // Nothing left: the deadline ends it, timed out.
    WaitRequest soon;
    soon.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
    auto timed_out = wait(bob.session, soon, deliver);
    REQUIRE(timed_out.ok());
    CHECK(timed_out->outcome.end == mail::WaitEnd::timed_out);
    CHECK(to_json(*timed_out)["message"].is_null());
    CHECK(to_json(*timed_out)["timed_out"] == true);
  }
}

} // namespace mailroom::ops
