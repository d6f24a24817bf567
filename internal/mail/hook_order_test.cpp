#include <doctest/doctest.h>

#include "mail/hook_order.hpp"

using namespace mailroom;
using namespace mailroom::mail;

namespace {

Message unread(std::string id, UnixMillis at, Priority priority = Priority::normal,
               std::string type = "message")
{
  Message m;
  m.id = std::move(id);
  m.created_at = at;
  m.priority = priority;
  m.type = std::move(type);
  m.state = DeliveryState{};
  return m;
}

Message owed(std::string id, UnixMillis at, Priority priority = Priority::normal)
{
  Message m = unread(std::move(id), at, priority, "task_request");
  m.state->request_state = RequestState::submitted;
  m.state->ack_state = AckState::awaiting_ack;
  return m;
}

std::vector<MessageId> ids(const std::vector<Message>& messages)
{
  std::vector<MessageId> out;
  for (const Message& m : messages) {
    out.push_back(m.id);
  }
  return out;
}

} // namespace

TEST_SUITE("mailroom::mail::hook_order")
{
  TEST_CASE("urgent mail, then what is owed oldest first, then inbox order")
  {
    std::vector<Message> list = {
        unread("low-old", 1, Priority::low),
        owed("task-new", 9),
        unread("fyi", 2),
        unread("esc", 8, Priority::urgent, "escalation"),
        owed("task-old", 3, Priority::low),
        unread("urgent", 7, Priority::urgent),
        owed("task-urgent", 5, Priority::urgent),
        unread("high", 6, Priority::high),
        unread("esc-high", 4, Priority::high, "escalation"), // sent high on purpose: not urgent
    };
    sort_for_hook(list);
    CHECK(ids(list) == std::vector<MessageId>{"task-urgent", "urgent", "esc", "task-old", "task-new",
                                              "esc-high", "high", "fyi", "low-old"});
    CheckResult counts;
    count_hook_classes(list, counts);
    CHECK(counts.unread == 9);
    CHECK(counts.urgent == 3);
    CHECK(counts.awaiting == 2);
    CHECK(counts.owed == 3);
  }

  TEST_CASE("owed is inbox --awaiting's rule: open requests, else an awaited or escalated ack")
  {
    Message m = unread("m", 1);
    CHECK_FALSE(awaits_reply(m));
    m.state->ack_state = AckState::escalated;
    CHECK(awaits_reply(m));
    m.state->request_state = RequestState::input_required; // a request decides alone
    CHECK_FALSE(awaits_reply(m));
    m.state->request_state = RequestState::working;
    CHECK(awaits_reply(m));
    m.state.reset(); // not a recipient
    CHECK_FALSE(awaits_reply(m));
  }

  TEST_CASE("the message to answer is the first listed that awaits a reply, else the first")
  {
    CHECK(message_to_answer({}) == nullptr);
    const std::vector<Message> mixed = {unread("a", 1, Priority::urgent), owed("b", 2), owed("c", 3)};
    CHECK(message_to_answer(mixed)->id == "b");
    const std::vector<Message> plain = {unread("a", 1), unread("b", 2)};
    CHECK(message_to_answer(plain)->id == "a");
  }
}
