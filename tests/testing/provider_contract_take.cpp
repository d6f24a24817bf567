// mailroom's contract cases about `wait --read` taking a message once (contract "wait --read takes
// a message once"): the take is conditional on the message being unread, only the taker that made
// it gets the message, the message is marked read only once it was written (a taker killed while
// writing loses nothing), and a message that could not be delivered stays unread.

#include <string>

#include "mail/claims.hpp"
#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

namespace {

const std::vector<Mailbox> k_people = {"alice", "bob", "carol"};

} // namespace

void run_take_cases(const ProviderMaker& make)
{
  SUBCASE("Take_OnlyTheFirstTakerGetsTheMessage")
  {
    Fixture f(make, k_people);
    auto& p = f.provider();
    const auto sent = f.send("alice", "bob", "job", "do it").message;
    int delivered = 0;
    const mail::DeliverFn count = [&](const mail::Message& message) {
      ++delivered;
      CHECK(message.body == "do it");
      return Result<void>();
    };
    const auto first = MUST(p.take(actor("bob"), sent.id, count));
    REQUIRE(first.has_value());
    CHECK(first->id == sent.id);
    CHECK(delivered == 1);
    CHECK(state_of(f.get("bob", sent.id)).read);
    CHECK(f.inbox_ids("bob").empty());
    // The second taker finds it taken: nothing delivered, nothing changed.
    const auto second = MUST(p.take(actor("bob"), sent.id, count));
    CHECK_FALSE(second.has_value());
    CHECK(delivered == 1);
    // Unread again (mark-unread), it can be taken again.
    MUST(f.change("bob", sent.id, Change::mark_unread));
    CHECK(MUST(p.take(actor("bob"), sent.id, count)).has_value());
    CHECK(delivered == 2);
  }

  SUBCASE("Take_AFailedDeliveryLeavesItUnread")
  {
    Fixture f(make, k_people);
    auto& p = f.provider();
    const auto sent = f.send("alice", "bob").message;
    const auto result = p.take(actor("bob"), sent.id, [](const mail::Message&) {
      return Result<void>(make_error(ErrorCode::store_error, "output closed"));
    });
    CHECK(code_of(result) == "store_error");
    CHECK_FALSE(state_of(f.get("bob", sent.id)).read);
    CHECK(f.inbox_ids("bob") == std::vector<MessageId>{sent.id});
    CHECK(MUST(p.take(actor("bob"), sent.id, deliver_ok)).has_value());
    CHECK(f.inbox_ids("bob").empty());
  }

  SUBCASE("Take_MarksReadOnlyOnceTheMessageIsWritten")
  {
    Fixture f(make, k_people);
    auto& p = f.provider();
    const auto sent = f.send("alice", "bob", "job", "do it").message;
    bool checked = false;
    const auto taken = MUST(p.take(actor("bob"), sent.id, [&](const mail::Message& message) {
      // While it is written the message is unread everywhere (a taker killed now loses nothing)
      // and, on a store with holds, no other taker gets it.
      CHECK(message.id == sent.id);
      CHECK(f.count("bob").unread == 1);
      CHECK(f.inbox_ids("bob") == std::vector<MessageId>{sent.id});
      if (f.facets().claims != nullptr) {
        int other = 0;
        const auto second = MUST(p.take(actor("bob"), sent.id, [&](const mail::Message&) {
          ++other;
          return Result<void>();
        }));
        CHECK_FALSE(second.has_value());
        CHECK(other == 0);
      }
      checked = true;
      return Result<void>();
    }));
    CHECK(checked);
    REQUIRE(taken.has_value());
    CHECK(state_of(*taken).read);
    CHECK(state_of(f.get("bob", sent.id)).read);
    CHECK(f.count("bob").unread == 0);
  }

  SUBCASE("Take_AHoldRunsOutForATakerThatNeverFinished")
  {
    Fixture f(make, k_people);
    auto& p = f.provider();
    if (f.facets().claims == nullptr || !f.can_tick()) {
      return; // the exec provider's take holds nothing (docs/exec-protocol.md)
    }
    const auto sent = f.send("alice", "bob").message;
    const auto taken = MUST(p.take(actor("bob"), sent.id, [&](const mail::Message&) {
      // A taker stuck writing (or killed) holds the message until the lease runs out; then
      // another takes it, and the late first write marks nothing more.
      f.advance(mail::k_take_lease_ms - 1);
      CHECK_FALSE(MUST(p.take(actor("bob"), sent.id, deliver_ok)).has_value());
      f.advance(1);
      CHECK(MUST(p.take(actor("bob"), sent.id, deliver_ok)).has_value());
      CHECK(f.count("bob").unread == 0);
      return Result<void>();
    }));
    CHECK(taken.has_value());
    CHECK(f.count("bob").unread == 0);
  }

  SUBCASE("Take_PassesOverADeliveryAWatcherHolds")
  {
    Fixture f(make, k_people);
    auto& p = f.provider();
    if (f.facets().claims == nullptr) {
      return;
    }
    const auto sent = f.send("alice", "bob").message;
    mail::ClaimRequest request;
    request.mailbox = "bob";
    request.watcher = "w1";
    const auto claimed = MUST(reach(p).claim_next(request)).claim;
    REQUIRE(claimed.has_value());
    CHECK_FALSE(MUST(p.take(actor("bob"), sent.id, deliver_ok)).has_value());
    MUST(reach(p).finish_claim(*claimed, mail::ClaimFinish{mail::ClaimOutcome::released, 0, 3}));
    CHECK(MUST(p.take(actor("bob"), sent.id, deliver_ok)).has_value());
  }

  SUBCASE("Take_RefusesStrangersAndUnknownIds")
  {
    Fixture f(make, k_people);
    auto& p = f.provider();
    const auto sent = f.send("alice", "bob").message;
    CHECK(code_of(p.take(actor("carol"), sent.id, deliver_ok)) == "not_recipient");
    CHECK(code_of(p.take(actor("bob"), f.send("alice", "carol").message.id, deliver_ok)) == "not_recipient");
    CHECK_FALSE(state_of(f.get("bob", sent.id)).read);
  }
}

} // namespace mailroom::testing::contract
