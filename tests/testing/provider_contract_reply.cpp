// mailroom's contract cases about what a reply does besides storing a message: who a sender's
// reply to her own message reaches, that replying reads the original for the replier (where the
// provider's reply can: ProviderUnderTest::reply_reads_original), and that a
// reply is the ack of the replier's delivery.

#include <string>

#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

namespace {

const std::vector<Mailbox> k_people = {"alice", "bob", "carol", "dave"};

// The ack state of `recipient`'s delivery of `id`, from status().
AckState ack_of(Fixture& f, const MessageId& id, const Mailbox& recipient)
{
  const auto status = MUST(reach(f.provider()).status(id));
  for (const mail::DeliveryStatus& row : status.deliveries) {
    if (row.recipient == recipient) {
      return row.ack_state;
    }
  }
  FAIL("no delivery of ", id, " to ", recipient);
  return AckState::none;
}

} // namespace

void run_reply_effect_cases(const ProviderMaker& make)
{
  SUBCASE("SelfReply_ReachesTheOriginalRecipients")
  {
    // A sender replying to her own message writes to its recipients, never to herself (the fake
    // used to deliver it to her). A provider that cannot express that must say unsupported.
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob", "plan", "first draft").message;
    const auto result = f.provider().reply(Fixture::reply_request("alice", sent.id, "one more thing"));
    if (code_of(result) == "unsupported") {
      CHECK(f.inbox_ids("alice").empty());
      CHECK(f.inbox_ids("bob") == std::vector<MessageId>{sent.id});
    } else {
      const auto receipt = MUST(result);
      CHECK(receipt.recipients == std::vector<Mailbox>{"bob"});
      CHECK(receipt.message.to == std::vector<Mailbox>{"bob"});
      CHECK(receipt.message.thread_id == sent.thread_id);
      CHECK(f.inbox_ids("alice").empty());
      CHECK(sorted(f.inbox_ids("bob")) == sorted({sent.id, receipt.message.id}));
    }
    if (f.facets().whole_sends) {
      auto request = f.request("alice", {"bob", "carol"});
      request.cc = {"dave"};
      const auto group = f.send(request).message;
      CHECK(f.reply("alice", group.id, "to you both").recipients == std::vector<Mailbox>{"bob", "carol"});
      auto all = Fixture::reply_request("alice", group.id, "to all of you");
      all.reply_all = true;
      CHECK(MUST(f.provider().reply(all)).recipients == std::vector<Mailbox>{"bob", "carol", "dave"});
      CHECK(f.inbox_ids("alice").empty());
    }
  }

  SUBCASE("Reply_MarksTheOriginalReadForTheReplier")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob", "question", "?").message;
    CHECK(f.count("bob").unread == 1);
    const auto replied = f.reply("bob", sent.id, "answer").message;
    if (!f.reply_reads_original()) {
      // One run as gc's reply: the original is left as it was, never half-handled.
      CHECK(f.inbox_ids("bob") == std::vector<MessageId>{sent.id});
      CHECK(f.inbox_ids("alice") == std::vector<MessageId>{replied.id});
      return;
    }
    CHECK(state_of(f.get("bob", sent.id)).read);
    CHECK(f.inbox_ids("bob").empty());
    CHECK(f.count("bob").unread == 0);
    CHECK(f.check("bob", 5).unread == 0);
    // Only the replier's delivery: the reply itself is unread for its recipient.
    CHECK(f.inbox_ids("alice") == std::vector<MessageId>{replied.id});
    CHECK_FALSE(f.get("alice", sent.id).state.has_value());
    if (f.facets().whole_sends) {
      const auto group = f.send(f.request("alice", {"bob", "carol"})).message;
      f.reply("carol", group.id, "mine");
      CHECK(state_of(f.get("carol", group.id)).read);
      CHECK_FALSE(state_of(f.get("bob", group.id)).read);
      CHECK(f.inbox_ids("bob") == std::vector<MessageId>{group.id});
    }
  }

  SUBCASE("Reply_AcksTheRepliersDelivery")
  {
    Fixture f(make, k_people);
    if (f.facets().views && f.facets().whole_sends) {
      auto request = f.request("alice", {"bob", "carol"});
      request.type = "task_request"; // expects a reply, so its deliveries are tracked
      const auto task = f.send(request).message;
      CHECK(ack_of(f, task.id, "bob") == AckState::awaiting_ack);
      CHECK(ack_of(f, task.id, "carol") == AckState::awaiting_ack);
      CHECK(state_of(f.get("bob", task.id)).ack_state == AckState::awaiting_ack);
      f.tick();
      const auto answer = f.reply("bob", task.id, "done");
      CHECK(answer.message.type == "task_response");
      CHECK(ack_of(f, task.id, "bob") == AckState::acked);
      CHECK(ack_of(f, task.id, "carol") == AckState::awaiting_ack);
      CHECK(state_of(f.get("bob", task.id)).ack_state == AckState::acked);
      // The reply to a task expects nothing back.
      CHECK(ack_of(f, answer.message.id, "alice") == AckState::none);

      // An untracked delivery becomes acked when its recipient replies.
      const auto note = f.send("alice", "dave", "fyi", "nothing expected").message;
      CHECK(ack_of(f, note.id, "dave") == AckState::none);
      f.reply("dave", note.id, "thanks");
      CHECK(ack_of(f, note.id, "dave") == AckState::acked);
    }
  }

  SUBCASE("Reply_AcksEarlierAwaitingDeliveriesInTheThread")
  {
    Fixture f(make, k_people);
    if (f.facets().views && f.facets().whole_sends) {
      auto ask = f.request("alice", {"bob"}, "first", "do this");
      ask.ack = true;
      const auto first = f.send(ask).message;
      f.tick();
      // alice follows up in the same thread (a reply to her own message reaches bob), tracked too.
      auto follow_up = Fixture::reply_request("alice", first.id, "and this");
      follow_up.ack = true;
      const auto second = MUST(f.provider().reply(follow_up)).message;
      CHECK(second.to == std::vector<Mailbox>{"bob"});
      CHECK(ack_of(f, first.id, "bob") == AckState::awaiting_ack);
      CHECK(ack_of(f, second.id, "bob") == AckState::awaiting_ack);
      // An unrelated tracked message in another thread is not acked by a reply in this one.
      const auto elsewhere = f.send(ask).message;
      f.tick();
      f.reply("bob", second.id, "both done");
      CHECK(ack_of(f, second.id, "bob") == AckState::acked);
      CHECK(ack_of(f, first.id, "bob") == AckState::acked);
      CHECK(ack_of(f, elsewhere.id, "bob") == AckState::awaiting_ack);
      // Replying read only the message replied to.
      CHECK_FALSE(state_of(f.get("bob", first.id)).read);
      CHECK(state_of(f.get("bob", second.id)).read);
    }
  }

  SUBCASE("Ack_IsAChangeOnTheRecipientsDelivery")
  {
    // Ack state travels with multi-recipient messages (the whole_sends facet).
    Fixture f(make, k_people);
    auto tracked = f.request("alice", {"bob"}, "ack me", "please");
    tracked.ack = true;
    const auto sent = f.provider().send(tracked);
    if (f.facets().whole_sends) {
      const MessageId id = MUST(sent).message.id;
      CHECK(state_of(f.get("bob", id)).ack_state == AckState::awaiting_ack);
      CHECK(code_of(f.change("carol", id, Change::ack)) == "not_recipient");
      CHECK(code_of(f.change("bob", "nonexistent", Change::ack)) == "not_found");
      CHECK(MUST(f.change("bob", id, Change::ack)) == mail::ChangeOutcome::changed);
      CHECK(MUST(f.change("bob", id, Change::ack)) == mail::ChangeOutcome::already);
      CHECK(state_of(f.get("bob", id)).ack_state == AckState::acked);
      if (f.facets().views) {
        CHECK(ack_of(f, id, "bob") == AckState::acked);
      }
      // Acking is not reading.
      CHECK(f.inbox_ids("bob") == std::vector<MessageId>{id});
    } else {
      CHECK(code_of(sent) == "unsupported");
      const MessageId id = f.send("alice", "bob", "plain", "untracked").message.id;
      CHECK(code_of(f.change("bob", id, Change::ack)) == "unsupported");
    }
  }
}

} // namespace mailroom::testing::contract
