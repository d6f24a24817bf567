// mailroom's contract cases about watch's claims (contract "Watching"): one claimant wins, leases
// run out and are renewed, outcomes (done, retry, give up) and what they do to the delivery.

#include <string>

#include "mail/claims.hpp"
#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

namespace {

const std::vector<Mailbox> k_people = {"alice", "bob", "carol"};

constexpr mail::Millis k_lease = 60 * mail::k_second_ms;

mail::ClaimRequest claim_request(const Mailbox& mailbox, const std::string& watcher = "w1")
{
  mail::ClaimRequest request;
  request.mailbox = mailbox;
  request.lease_ms = k_lease;
  request.watcher = watcher;
  return request;
}

std::optional<mail::Claim> claim(Fixture& f, const mail::ClaimRequest& request)
{
  return MUST(reach(f.provider()).claim_next(request)).claim;
}

mail::ClaimFinish outcome(mail::ClaimOutcome what, mail::Millis retry_after = 0,
                          std::int64_t max_attempts = 3)
{
  return mail::ClaimFinish{what, retry_after, max_attempts};
}

} // namespace

void run_claim_cases(const ProviderMaker& make)
{
  SUBCASE("Claims_OneClaimantWinsAndDoneIsReadAndAcked")
  {
    Fixture f(make, k_people);
    auto& p = f.provider();
    if (!f.facets().claims) {
      CHECK(code_of(reach(p).claim_next(claim_request("bob"))) == "unsupported");
      return;
    }
    auto request = f.typed_request("alice", "bob", "task_request");
    const auto sent = f.send(request).message;
    const auto first = claim(f, claim_request("bob", "w1"));
    REQUIRE(first.has_value());
    CHECK(first->message.id == sent.id);
    CHECK(first->message.body == "body");
    CHECK(first->attempts == 0);
    CHECK_FALSE(first->token.empty());
    // The other watcher finds nothing while the lease holds, and is told when it runs out.
    const auto second = MUST(reach(p).claim_next(claim_request("bob", "w2")));
    CHECK_FALSE(second.claim.has_value());
    REQUIRE(second.wake_in_ms.has_value());
    CHECK(*second.wake_in_ms <= k_lease);
    CHECK(*second.wake_in_ms > 0);
    // Claimed is still unread: views do not change until the handler is done.
    CHECK(f.inbox_ids("bob") == std::vector<MessageId>{sent.id});
    MUST(reach(p).renew_claim(*first, k_lease));
    const auto done = MUST(reach(p).finish_claim(*first, outcome(mail::ClaimOutcome::done)));
    CHECK(done.attempts == 1);
    CHECK_FALSE(done.set_aside);
    const auto seen = f.get("bob", sent.id);
    CHECK(state_of(seen).read);
    CHECK(state_of(seen).ack_state == AckState::acked);
    const auto after = MUST(reach(p).claim_next(claim_request("bob", "w2")));
    CHECK_FALSE(after.claim.has_value());
    CHECK_FALSE(after.wake_in_ms.has_value());
    // Finished claims hold nothing any more.
    CHECK(code_of(reach(p).renew_claim(*first, k_lease)) == "conflict");
    CHECK(code_of(reach(p).finish_claim(*first, outcome(mail::ClaimOutcome::done))) == "conflict");
  }

  SUBCASE("Claims_AnExpiredLeaseIsTakenOverAndTheOldTokenIsRefused")
  {
    Fixture f(make, k_people);
    auto& p = f.provider();
    if (!f.facets().claims || !f.can_tick()) {
      return;
    }
    const auto sent = f.send("alice", "bob").message;
    const auto dead = claim(f, claim_request("bob", "w1"));
    REQUIRE(dead.has_value());
    f.advance(k_lease - 1);
    CHECK_FALSE(claim(f, claim_request("bob", "w2")).has_value());
    f.advance(1);
    const auto taken = claim(f, claim_request("bob", "w2"));
    REQUIRE(taken.has_value());
    CHECK(taken->message.id == sent.id);
    CHECK(taken->token != dead->token);
    CHECK(taken->attempts == 1); // the dead watcher's attempt counts
    CHECK(code_of(reach(p).renew_claim(*dead, k_lease)) == "conflict");
    CHECK(code_of(reach(p).finish_claim(*dead, outcome(mail::ClaimOutcome::done))) == "conflict");
    CHECK_FALSE(state_of(f.get("bob", sent.id)).read);
    // Renewing keeps it: past the first lease, nobody else gets it.
    f.advance(k_lease / 2);
    MUST(reach(p).renew_claim(*taken, k_lease));
    f.advance(k_lease / 2 + 1);
    CHECK_FALSE(claim(f, claim_request("bob", "w3")).has_value());
    CHECK(MUST(reach(p).finish_claim(*taken, outcome(mail::ClaimOutcome::done))).attempts == 2);
  }

  SUBCASE("Claims_FailuresRetryThenSetAsideUntilMarkUnread")
  {
    Fixture f(make, k_people);
    auto& p = f.provider();
    if (!f.facets().claims) {
      return;
    }
    const auto sent = f.send("alice", "bob").message;
    const auto c1 = claim(f, claim_request("bob"));
    REQUIRE(c1.has_value());
    const auto r1 = MUST(reach(p).finish_claim(*c1, outcome(mail::ClaimOutcome::failed, 5000, 2)));
    CHECK(r1.attempts == 1);
    CHECK_FALSE(r1.set_aside);
    CHECK(f.inbox_ids("bob") == std::vector<MessageId>{sent.id}); // still unread
    if (f.can_tick()) {
      const auto waiting = MUST(reach(p).claim_next(claim_request("bob")));
      CHECK_FALSE(waiting.claim.has_value());
      CHECK(waiting.wake_in_ms == std::optional<mail::Millis>(5000));
      f.advance(5000);
    } else {
      // A clock that stands still never reaches the retry time; fail with no wait instead.
      return;
    }
    const auto c2 = claim(f, claim_request("bob"));
    REQUIRE(c2.has_value());
    CHECK(c2->attempts == 1);
    const auto r2 = MUST(reach(p).finish_claim(*c2, outcome(mail::ClaimOutcome::failed, 5000, 2)));
    CHECK(r2.attempts == 2);
    CHECK(r2.set_aside);
    f.advance(60 * mail::k_minute_ms);
    const auto aside = MUST(reach(p).claim_next(claim_request("bob")));
    CHECK_FALSE(aside.claim.has_value());
    CHECK_FALSE(aside.wake_in_ms.has_value());
    CHECK(f.inbox_ids("bob") == std::vector<MessageId>{sent.id}); // set aside is not read
    // mark-unread clears the mark and the count: watch takes it again from the start.
    f.expect_outcome(f.change("bob", sent.id, Change::mark_unread), mail::ChangeOutcome::changed);
    const auto again = claim(f, claim_request("bob"));
    REQUIRE(again.has_value());
    CHECK(again->attempts == 0);
  }

  SUBCASE("Claims_SpentAttemptsAreSetAsideInsteadOfClaimed")
  {
    // Attempts that ended unseen (a watcher killed mid-handler, a lease lost) count: once they
    // reach max_attempts the delivery is set aside, not run again, however they ended.
    Fixture f(make, k_people);
    auto& p = f.provider();
    if (!f.facets().claims || !f.can_tick()) {
      return;
    }
    const auto sent = f.send("alice", "bob").message;
    const auto other = f.send("carol", "bob").message;
    auto request = claim_request("bob");
    request.max_attempts = 2;
    request.from = "alice";
    const auto c1 = claim(f, request);
    REQUIRE(c1.has_value());
    f.advance(k_lease); // the watcher died: its lease runs out
    const auto c2 = claim(f, request);
    REQUIRE(c2.has_value());
    CHECK(c2->attempts == 1);
    f.advance(k_lease);
    const auto spent = MUST(reach(p).claim_next(request));
    CHECK_FALSE(spent.claim.has_value());
    REQUIRE(spent.set_aside.has_value());
    CHECK(spent.set_aside->message.id == sent.id);
    CHECK(spent.set_aside->message.body == "body");
    CHECK(spent.set_aside->attempts == 2);
    CHECK(spent.set_aside->token.empty());
    CHECK(code_of(reach(p).finish_claim(*c2, outcome(mail::ClaimOutcome::done))) == "conflict");
    // Set aside is not read, nor claimable, nor pending; other mail is untouched.
    const auto after = MUST(reach(p).claim_next(request));
    CHECK_FALSE(after.claim.has_value());
    CHECK_FALSE(after.set_aside.has_value());
    CHECK_FALSE(after.wake_in_ms.has_value());
    CHECK_FALSE(state_of(f.get("bob", sent.id)).read);
    const auto next = claim(f, claim_request("bob", "w2"));
    REQUIRE(next.has_value());
    CHECK(next->message.id == other.id);
    // mark-unread gives it its attempts back.
    f.expect_outcome(f.change("bob", sent.id, Change::mark_unread), mail::ChangeOutcome::changed);
    const auto again = claim(f, request);
    REQUIRE(again.has_value());
    CHECK(again->message.id == sent.id);
    CHECK(again->attempts == 0);
  }

  SUBCASE("Claims_ReleasedIsAsIfNeverClaimed")
  {
    Fixture f(make, k_people);
    auto& p = f.provider();
    if (!f.facets().claims) {
      return;
    }
    f.send("alice", "bob");
    const auto c1 = claim(f, claim_request("bob"));
    REQUIRE(c1.has_value());
    CHECK(MUST(reach(p).finish_claim(*c1, outcome(mail::ClaimOutcome::released))).attempts == 0);
    const auto c2 = claim(f, claim_request("bob", "w2"));
    REQUIRE(c2.has_value());
    CHECK(c2->attempts == 0);
    CHECK(code_of(reach(p).finish_claim(*c1, outcome(mail::ClaimOutcome::released))) == "conflict");
  }

  SUBCASE("Claims_InboxOrderFiltersAndTheUnreadRule")
  {
    Fixture f(make, k_people);
    if (!f.facets().claims) {
      return;
    }
    const auto chat = f.send("alice", "bob", "chat").message;
    f.tick();
    const auto task = f.send(f.typed_request("carol", "bob", "task_request", "task")).message;
    f.tick();
    auto urgent = f.request("alice", {"bob"}, "urgent", "now");
    urgent.priority = mail::Priority::urgent;
    const auto urgent_id = f.send(urgent).message.id;
    f.tick();
    const auto read = f.send("alice", "bob", "already read").message;
    f.read("bob", read.id);
    const auto archived = f.send("alice", "bob", "archived").message;
    MUST(f.change("bob", archived.id, Change::archive));

    auto tasks = claim_request("bob");
    tasks.types = {"task_request"};
    auto c = claim(f, tasks);
    REQUIRE(c.has_value());
    CHECK(c->message.id == task.id);
    CHECK_FALSE(claim(f, tasks).has_value());
    auto from_carol = claim_request("bob");
    from_carol.from = "carol";
    CHECK_FALSE(claim(f, from_carol).has_value()); // carol's only message is claimed
    c = claim(f, claim_request("bob"));
    REQUIRE(c.has_value());
    CHECK(c->message.id == urgent_id);
    c = claim(f, claim_request("bob"));
    REQUIRE(c.has_value());
    CHECK(c->message.id == chat.id);
    CHECK_FALSE(claim(f, claim_request("bob")).has_value());
    CHECK_FALSE(claim(f, claim_request("alice")).has_value());
  }
}

} // namespace mailroom::testing::contract
