// mailroom's contract cases about what reaches an agent (contract "Three surfaces, one truth": the
// hook's order). The hook's check lists urgent mail and escalations first (inbox order), then the
// unread deliveries the mailbox owes a reply (mail::awaits_reply), oldest first, then the rest in
// inbox order, and counts the classes (mail/hook_order.hpp). Stores whose sends do not keep
// priority, type and request states (the exec provider) sort what their script lists by the same
// rule (exec's own cases).

#include <string>
#include <vector>

#include "mail/hook_order.hpp"
#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

void run_reach_cases(const ProviderMaker& make)
{
  SUBCASE("Check_ListsUrgentThenWhatAwaitsTheMailboxThenInboxOrder")
  {
    Fixture f(make, {"lead", "news", "builder"});
    if (!f.facets().whole_sends) {
      return; // priority, type and request states do not travel (exec)
    }
    // Three FYI messages, one of them urgent, two requests, an escalation, an urgent request, and
    // another FYI, in that order of arrival.
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
    auto dark = f.typed_request("news", "builder", "escalation", "lead is dark");
    dark.priority = mail::default_priority(dark.type); // as ops sends it: urgent
    const MessageId escalation = f.send(dark).message.id;
    f.tick();
    auto hurry = f.typed_request("lead", "builder", "task_request", "urgent task");
    hurry.priority = mail::Priority::urgent;
    const MessageId urgent_task = f.send(hurry).message.id;
    f.tick();
    const MessageId fyi3 = f.send("news", "builder", "fyi 3", "three").message.id;

    const mail::CheckResult all = MUST(f.provider().check("builder", 20, std::nullopt));
    CHECK(all.unread == 8);
    CHECK(all.urgent == 3);   // fyi urgent, the escalation, the urgent task (inbox order)
    CHECK(all.awaiting == 2); // the two other tasks
    CHECK(all.owed == 3);     // and the urgent one
    CHECK(ids_of(all.messages) ==
          std::vector<MessageId>{fyi_urgent, escalation, urgent_task, task1, task2, fyi1, fyi2, fyi3});
    // A limit keeps the head of that order and every count.
    const mail::CheckResult three = MUST(f.provider().check("builder", 3, std::nullopt));
    CHECK(three.unread == 8);
    CHECK(three.awaiting == 2);
    CHECK(ids_of(three.messages) == std::vector<MessageId>{fyi_urgent, escalation, urgent_task});
    // Limits that cut inside the second and the third class.
    CHECK(ids_of(MUST(f.provider().check("builder", 4, std::nullopt)).messages) ==
          std::vector<MessageId>{fyi_urgent, escalation, urgent_task, task1});
    CHECK(ids_of(MUST(f.provider().check("builder", 6, std::nullopt)).messages) ==
          std::vector<MessageId>{fyi_urgent, escalation, urgent_task, task1, task2, fyi1});
    // A read delivery leaves the list; the rest keep their places.
    MUST(f.provider().change(mail::Actor{"builder", "builder"}, task1, mail::Change::mark_read));
    const mail::CheckResult after = MUST(f.provider().check("builder", 20, std::nullopt));
    CHECK(after.awaiting == 1);
    CHECK(ids_of(after.messages) ==
          std::vector<MessageId>{fyi_urgent, escalation, urgent_task, task2, fyi1, fyi2, fyi3});
    // Each listed message in the order mail::hook_before gives (the SQL is the same rule).
    std::vector<mail::Message> sorted = after.messages;
    mail::sort_for_hook(sorted);
    CHECK(ids_of(sorted) == ids_of(after.messages));
    // The predicate without a list counts only.
    CHECK(MUST(f.provider().check("builder", 0, std::nullopt)).unread == 7);
  }

  SUBCASE("Check_ARequestIsOwedWithoutAckTracking")
  {
    // Under [delivery] ack = "never" a request has no ack state; its request state alone makes it
    // owed, listed in the second class and counted (the index the hook reads holds it).
    mail::MailPolicy never;
    never.ack = mail::AckPolicy::never;
    Fixture f(make, {"lead", "builder"}, never);
    if (!f.facets().whole_sends) {
      return;
    }
    const MessageId fyi = f.send("lead", "builder", "fyi", "first").message.id;
    f.tick();
    const MessageId task = f.send(f.typed_request("lead", "builder", "task_request", "a task")).message.id;
    CHECK(state_of(f.get("builder", task)).ack_state == AckState::none);
    const mail::CheckResult one = MUST(f.provider().check("builder", 1, std::nullopt));
    CHECK(ids_of(one.messages) == std::vector<MessageId>{task});
    CHECK(one.awaiting == 1);
    CHECK(one.owed == 1);
    CHECK(ids_of(MUST(f.provider().check("builder", 5, std::nullopt)).messages) ==
          std::vector<MessageId>{task, fyi});
  }
}

} // namespace mailroom::testing::contract
