// mailroom's contract cases about `wait --read` taking a message once (contract "wait --read takes
// a message once"): the mark is conditional on the message being unread, only the taker that made
// it gets the message, and a message that could not be delivered is unread again.

#include <string>

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
