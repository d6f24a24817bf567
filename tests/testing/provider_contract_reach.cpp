// mailroom's contract cases about what reaches an agent (contract "What reaches an agent"): the
// hook's check lists the unread deliveries awaiting the mailbox's ack or reply first, oldest
// first, then the rest in inbox order (urgent first), and counts both classes. Stores without
// ack tracking (the exec provider) have no awaiting class: their check is inbox order.

#include <string>
#include <vector>

#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

void run_reach_cases(const ProviderMaker& make)
{
  SUBCASE("Check_ListsWhatAwaitsTheMailboxFirstThenInboxOrder")
  {
    Fixture f(make, {"lead", "news", "builder"});
    if (!f.facets().whole_sends) {
      return; // priority, type and ack state do not travel (exec): check is inbox order (list cases)
    }
    // Three older FYI messages, one of them urgent, then two requests, then another FYI.
    const MessageId fyi1 = f.send("news", "builder", "fyi 1", "one").message.id;
    f.tick();
    auto urgent = f.request("news", {"builder"}, "fyi urgent", "now");
    urgent.priority = mail::Priority::urgent;
    const MessageId fyi_urgent = f.send(urgent).message.id;
    f.tick();
    const MessageId fyi2 = f.send("news", "builder", "fyi 2", "two").message.id;
    f.tick();
    const MessageId task1 =
        f.send(f.typed_request("lead", "builder", "task_request", "first task")).message.id;
    f.tick();
    const MessageId task2 =
        f.send(f.typed_request("lead", "builder", "task_request", "second task")).message.id;
    f.tick();
    const MessageId fyi3 = f.send("news", "builder", "fyi 3", "three").message.id;

    const mail::CheckResult all = MUST(f.provider().check("builder", 10, std::nullopt));
    CHECK(all.unread == 6);
    const bool tracked = state_of(f.get("builder", task1)).ack_state == AckState::awaiting_ack;
    if (tracked) {
      CHECK(all.awaiting == 2);
      CHECK(all.urgent == 1);
      CHECK(ids_of(all.messages) == std::vector<MessageId>{task1, task2, fyi_urgent, fyi1, fyi2, fyi3});
      // A limit keeps the head of that order.
      const mail::CheckResult three = MUST(f.provider().check("builder", 3, std::nullopt));
      CHECK(three.unread == 6);
      CHECK(ids_of(three.messages) == std::vector<MessageId>{task1, task2, fyi_urgent});
      // Read or acked deliveries leave the class; the rest keep their places.
      MUST(f.provider().change(mail::Actor{"builder", "builder"}, task1, mail::Change::mark_read));
      const mail::CheckResult after = MUST(f.provider().check("builder", 10, std::nullopt));
      CHECK(after.awaiting == 1);
      CHECK(ids_of(after.messages) == std::vector<MessageId>{task2, fyi_urgent, fyi1, fyi2, fyi3});
    } else {
      CHECK(all.awaiting == 0);
      REQUIRE(all.messages.size() == 6);
      CHECK(all.messages.front().id == fyi_urgent);
    }
    // The predicate without a list counts only.
    CHECK(MUST(f.provider().check("builder", 0, std::nullopt)).unread == (tracked ? 5 : 6));
  }
}

} // namespace mailroom::testing::contract
