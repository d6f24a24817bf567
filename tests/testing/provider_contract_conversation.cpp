// mailroom's contract cases about conversations and bookkeeping: replies, threads, idempotency
// keys and delivery status.

#include <string>

#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

using mail::Change;
using mail::Mailbox;
using mail::MessageId;

namespace {

const std::vector<Mailbox> k_people = {"alice", "bob", "carol", "dave"};

} // namespace

void run_conversation_cases(const ProviderMaker& make)
{
  SUBCASE("Reply_SubjectGetsReOnce")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob", "Lunch", "noon?").message;
    // A store adds "Re: " (mail::reply_subject); the exec wire sends the subject as gc does, empty
    // without -s, and the script names the reply (docs/exec-protocol.md).
    const bool derives = f.facets().whole_sends != nullptr;
    const auto first = f.reply("bob", sent.id, "yes").message;
    CHECK(first.subject == (derives ? "Re: Lunch" : ""));
    const auto second = f.reply("alice", first.id, "great").message;
    CHECK(second.subject == (derives ? "Re: Lunch" : ""));
    CHECK(second.to == std::vector<Mailbox>{"bob"});
    CHECK(second.thread_id == sent.thread_id);
    auto explicit_subject = Fixture::reply_request("bob", sent.id, "also");
    explicit_subject.subject = "Different";
    CHECK(MUST(f.provider().reply(explicit_subject)).message.subject == "Different");
    const auto shouting = f.send("alice", "bob", "RE: loud", "x").message;
    CHECK(f.reply("bob", shouting.id, "ok").message.subject == (derives ? "RE: loud" : ""));
  }

  SUBCASE("Reply_OnlyToSenderUnlessAll")
  {
    Fixture f(make, k_people);
    if (f.facets().whole_sends) {
      auto request = f.request("alice", {"bob", "carol"});
      request.cc = {"dave"};
      const auto sent = f.send(request).message;
      const auto plain = f.reply("bob", sent.id, "to alice");
      CHECK(plain.recipients == std::vector<Mailbox>{"alice"});
      CHECK(f.inbox_ids("carol") == std::vector<MessageId>{sent.id});

      auto all = Fixture::reply_request("carol", sent.id, "to everyone");
      all.reply_all = true;
      const auto everyone = MUST(f.provider().reply(all));
      CHECK(sorted(everyone.recipients) == std::vector<Mailbox>{"alice", "bob", "dave"});
      CHECK(everyone.message.to.front() == "alice");
      CHECK(everyone.message.thread_id == sent.thread_id);
      CHECK(f.inbox_ids("carol").empty()); // not to the replier, and replying read the original
      CHECK(f.inbox_ids("carol", true) == std::vector<MessageId>{sent.id});
      CHECK(f.inbox_ids("bob").size() == 1); // bob's reply read the original
      CHECK(f.inbox_ids("bob", true).size() == 2);
    } else {
      auto all = Fixture::reply_request("bob", f.send("alice", "bob").message.id, "to everyone");
      all.reply_all = true;
      CHECK(code_of(f.provider().reply(all)) == "unsupported");
    }
  }

  SUBCASE("Thread_ByMessageId")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    f.tick();
    const auto replied = f.reply("bob", sent.id, "back").message;
    for (const MessageId& id : {sent.id, replied.id}) {
      INFO("thread of ", id);
      const auto thread = MUST(f.provider().thread("bob", id));
      CHECK(thread.thread_id == sent.thread_id);
      CHECK(sorted(ids_of(thread.messages)) == sorted({sent.id, replied.id}));
      check_chronological(thread.messages);
    }
    f.send("alice", "bob", "another", "thread");
    CHECK(MUST(f.provider().thread("alice", sent.thread_id)).messages.size() == 2);
  }

  SUBCASE("Thread_IncludesArchivedWithViewerState")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    MUST(f.change("bob", sent.id, Change::archive));
    const auto thread = MUST(f.provider().thread("bob", sent.thread_id));
    REQUIRE(thread.messages.size() == 1);
    if (f.full_state()) {
      CHECK(state_of(thread.messages[0]).archived);
      CHECK_FALSE(state_of(thread.messages[0]).read);
    }
  }

  SUBCASE("Idempotency_ReplayAndConflict")
  {
    Fixture f(make, k_people);
    auto request = f.request("alice", {"bob"}, "deploy", "ship it");
    request.idempotency_key = "key-1";
    if (f.facets().whole_sends) {
      const auto first = f.send(request);
      CHECK_FALSE(first.replayed);
      const auto again = f.send(request);
      CHECK(again.replayed);
      CHECK(again.message.id == first.message.id);
      CHECK(again.recipients == first.recipients);
      CHECK(f.inbox_ids("bob") == std::vector<MessageId>{first.message.id});

      auto changed = request;
      changed.body = "ship it now";
      CHECK(code_of(f.provider().send(changed)) == "conflict");
      auto other_recipient = request;
      other_recipient.to = {"carol"};
      CHECK(code_of(f.provider().send(other_recipient)) == "conflict");
      CHECK(f.inbox_ids("carol").empty());
      CHECK(f.count("bob").total == 1);

      // Keys belong to their sender.
      auto from_carol = request;
      from_carol.from = "carol";
      const auto carol = f.send(from_carol);
      CHECK_FALSE(carol.replayed);
      CHECK(carol.message.id != first.message.id);

      auto reply = Fixture::reply_request("bob", first.message.id, "done");
      reply.idempotency_key = "reply-1";
      const auto replied = MUST(f.provider().reply(reply));
      const auto replayed = MUST(f.provider().reply(reply));
      CHECK(replayed.replayed);
      CHECK(replayed.message.id == replied.message.id);
      CHECK(f.inbox_ids("alice").size() == 1);
    } else {
      CHECK(code_of(f.provider().send(request)) == "unsupported");
      CHECK(f.inbox_ids("bob").empty());
    }
  }

  SUBCASE("Status_ListsEachRecipient")
  {
    Fixture f(make, k_people);
    auto request = f.request("alice", {"bob"});
    std::vector<Mailbox> expected = {"bob"};
    if (f.facets().whole_sends) {
      request.to = {"carol", "bob"};
      request.cc = {"dave"};
      expected = {"carol", "bob", "dave"};
    }
    const auto sent = f.send(request).message;
    if (f.facets().views) {
      f.tick();
      f.read("bob", sent.id);
      MUST(f.change("bob", sent.id, Change::archive));
      const auto status = MUST(reach(f.provider()).status(sent.id));
      CHECK(status.message.id == sent.id);
      REQUIRE(status.deliveries.size() == expected.size());
      for (std::size_t i = 0; i < status.deliveries.size(); ++i) {
        const mail::DeliveryStatus& row = status.deliveries[i];
        INFO("row ", i, ": ", row.recipient);
        CHECK(row.recipient == expected[i]);
        CHECK(row.kind == (row.recipient == "dave" ? "cc" : "to"));
        CHECK(row.delivered_at == sent.created_at);
        CHECK(row.read_at.has_value() == (row.recipient == "bob"));
        CHECK(row.archived_at.has_value() == (row.recipient == "bob"));
        CHECK(row.ack_state == mail::AckState::none);
        CHECK_FALSE(row.acted_by.has_value());
        if (row.read_at) {
          CHECK(*row.read_at >= row.delivered_at);
        }
      }
    } else {
      CHECK(code_of(reach(f.provider()).status(sent.id)) == "unsupported");
    }
  }
}

} // namespace mailroom::testing::contract
