// Waiting ends when the answer is known (contract "What reaches an agent"): every wait result has
// "outcome" and "notice"; a request ends at its first reply, or at once when every recipient's
// delivery is set aside, escalated or expired (exit 1); wait --since and --after restrict what
// counts. Against a real bead store in memory on a clock the test controls.

#include <map>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "beads/bead_store.hpp"
#include "cli/app.hpp"
#include "mail/claims.hpp"
#include "testing/fixed_clock.hpp"
#include "testing/reach.hpp"
#include "testing/temp_dir.hpp"

namespace mailroom::cli {

namespace {

struct Harness {
  testing::FixedClock clock;
  std::unique_ptr<providers::sqlstore::SqlStore> store;
  std::map<std::string, std::string> vars;
  std::string cwd;
  StringOutput out;

  Harness() : cwd(testing::make_temp_dir("wait-outcome").string())
  {
    vars["HOME"] = cwd;
    mail::MailPolicy policy;
    policy.redelivery.enabled = true;
    policy.redelivery.first_after = 1000;
    policy.redelivery.backoff = 1.0;
    policy.redelivery.max_attempts = 1;
    mail::StoreSettings settings;
    settings.path = ":memory:";
    auto made = providers::beads::open_bead_store(settings, policy, clock);
    REQUIRE(made.ok());
    store = std::move(made).value();
    REQUIRE(mailroom::testing::reach(*store).add_agents({"lead", "worker", "other"}).ok());
  }

  int run(const std::vector<std::string>& args)
  {
    out = StringOutput();
    util::MapEnvironment env(vars, cwd);
    StringInput in;
    AppDeps deps{env, out, in, clock, nullptr, store.get()};
    return run_args(args, deps);
  }

  nlohmann::json json() const { return nlohmann::json::parse(out.out_text()); }

  std::string send(std::vector<std::string> args)
  {
    args.insert(args.begin(), "--json");
    REQUIRE(run(args) == 0);
    return json().at("id").get<std::string>();
  }

  // The worker's watcher gives up on its first delivery: claimed, failed, set aside.
  void set_aside_first()
  {
    mail::ClaimRequest request;
    request.mailbox = "worker";
    request.watcher = "test";
    auto next = mailroom::testing::reach(*store).claim_next(request);
    REQUIRE(next.ok());
    REQUIRE(next->claim);
    mail::ClaimFinish finish;
    finish.outcome = mail::ClaimOutcome::failed;
    finish.max_attempts = 1;
    auto finished = mailroom::testing::reach(*store).finish_claim(*next->claim, finish);
    REQUIRE(finished.ok());
    REQUIRE(finished->set_aside);
    // As watch does next: the escalation about it, to the sender.
    const mail::RedeliverySchedule redelivery;
    const auto recipient = mail::watch_escalation_recipient(next->claim->message, redelivery);
    REQUIRE(recipient);
    const auto escalation = mail::watch_escalation({{next->claim->message, finished->attempts, "exit 1"}},
                                                   "worker", {"./handle"}, *recipient);
    REQUIRE(store->send(escalation).ok());
  }
};

} // namespace

TEST_SUITE("mailroom::cli wait outcomes")
{
  TEST_CASE("a reply ends the wait with outcome replied and the reply as notice")
  {
    Harness h;
    const std::string request = h.send({"--as", "lead", "send", "worker", "--type", "task_request", "do it"});
    const std::string reply = h.send({"--as", "worker", "reply", request, "done"});
    CHECK(h.run({"--json", "--as", "lead", "wait", "--reply-to", request, "--timeout", "5s"}) == 0);
    const auto doc = h.json();
    CHECK(doc["outcome"] == "replied");
    CHECK(doc["timed_out"] == false);
    CHECK(doc["message"]["id"] == reply);
    CHECK(doc["notice"]["id"] == reply);
    // A plain wait finds.
    h.send({"--as", "lead", "send", "other", "fyi"});
    CHECK(h.run({"--json", "--as", "other", "wait", "--timeout", "1s"}) == 0);
    CHECK(h.json()["outcome"] == "found");
  }

  TEST_CASE("a request set aside by the worker's watcher ends at once: exit 1, set_aside")
  {
    Harness h;
    const std::string request = h.send({"--as", "lead", "send", "worker", "--type", "task_request", "do it"});
    h.set_aside_first();
    // A timeout far away: the answer is known now, so the wait does not run it out.
    CHECK(h.run({"--json", "--as", "lead", "wait", "--reply-to", request, "--timeout", "1h"}) == 1);
    const auto doc = h.json();
    CHECK(doc["outcome"] == "set_aside");
    CHECK(doc["timed_out"] == false);
    CHECK(doc["message"].is_null());
    CHECK(doc["notice"]["type"] == "escalation");
    CHECK(doc["notice"]["from"] == "mailroom");
    // Text: one line on stderr saying why.
    CHECK(h.run({"--as", "lead", "wait", "--reply-to", request, "--timeout", "1h"}) == 1);
    CHECK(h.out.err_text().find("set aside") != std::string::npos);
    // A reply after all still wins.
    h.send({"--as", "worker", "reply", request, "late but done"});
    CHECK(h.run({"--json", "--as", "lead", "wait", "--reply-to", request, "--timeout", "1h"}) == 0);
    CHECK(h.json()["outcome"] == "replied");
  }

  TEST_CASE("an expired request ends at once with outcome expired")
  {
    Harness h;
    const std::string request =
        h.send({"--as", "lead", "send", "worker", "--type", "task_request", "--ttl", "1m", "do it"});
    CHECK(h.run({"--json", "--as", "lead", "wait", "--reply-to", request, "--timeout", "1s"}) == 1);
    CHECK(h.json()["outcome"] == "timed_out"); // not expired yet: the timeout ended it
    CHECK(h.json()["timed_out"] == true);
    h.clock.advance(61 * 1000);
    CHECK(h.run({"--json", "--as", "lead", "wait", "--reply-to", request, "--timeout", "1h"}) == 1);
    CHECK(h.json()["outcome"] == "expired");
    CHECK(h.json()["notice"].is_null());
  }

  TEST_CASE(
      "a request escalated by the sweep ends at once with outcome escalated and the escalation as notice")
  {
    Harness h;
    const std::string request = h.send({"--as", "lead", "send", "worker", "--type", "task_request", "do it"});
    h.clock.advance(2000);
    REQUIRE(mailroom::testing::reach(*h.store).sweep(mail::SweepRequest{}).ok()); // redelivery 1 of 1
    h.clock.advance(2000);
    REQUIRE(mailroom::testing::reach(*h.store).sweep(mail::SweepRequest{}).ok()); // escalation
    REQUIRE(mailroom::testing::reach(*h.store).status(request)->deliveries.front().ack_state ==
            mail::AckState::escalated);
    CHECK(h.run({"--json", "--as", "lead", "wait", "--reply-to", request, "--timeout", "1h"}) == 1);
    CHECK(h.json()["outcome"] == "escalated");
  }

  TEST_CASE("wait --after is a cursor: only mail that arrived after that message")
  {
    Harness h;
    const std::string first = h.send({"--as", "lead", "send", "worker", "one"});
    h.clock.advance(10);
    const std::string second = h.send({"--as", "lead", "send", "worker", "two"});
    h.clock.advance(10);
    const std::string third = h.send({"--as", "lead", "send", "worker", "--urgent", "three"});
    // Without a cursor the first in inbox order (urgent first) comes back, again and again.
    CHECK(h.run({"--json", "--as", "worker", "wait", "--timeout", "1s"}) == 0);
    CHECK(h.json()["message"]["id"] == third);
    // With one, each call moves on, in arrival order, and nothing is returned twice.
    CHECK(h.run({"--json", "--as", "worker", "wait", "--after", first, "--timeout", "1s"}) == 0);
    CHECK(h.json()["message"]["id"] == second);
    CHECK(h.run({"--json", "--as", "worker", "wait", "--after", second, "--timeout", "1s"}) == 0);
    CHECK(h.json()["message"]["id"] == third);
    CHECK(h.run({"--json", "--as", "worker", "wait", "--after", third, "--timeout", "1s"}) == 1);
    CHECK(h.json()["outcome"] == "timed_out");
    CHECK(h.json()["notice"].is_null());
    CHECK(h.run({"--as", "worker", "wait", "--after", "mr-0000000000000000", "--timeout", "1s"}) == 3);
  }

  TEST_CASE("wait --since takes the filters' syntax: a duration ago or a time")
  {
    Harness h;
    h.send({"--as", "lead", "send", "worker", "old"});
    h.clock.advance(2 * 60 * 1000);
    CHECK(h.run({"--json", "--as", "worker", "wait", "--since", "1m", "--timeout", "1s"}) == 1);
    const std::string fresh = h.send({"--as", "lead", "send", "worker", "new"});
    CHECK(h.run({"--json", "--as", "worker", "wait", "--since", "1m", "--timeout", "1s"}) == 0);
    CHECK(h.json()["message"]["id"] == fresh);
    CHECK(h.run({"--as", "worker", "wait", "--since", "yesterday-ish"}) == 2);
  }
}

} // namespace mailroom::cli
