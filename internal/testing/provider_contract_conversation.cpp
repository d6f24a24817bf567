// mailroom's contract cases about conversations and bookkeeping: replies, threads, idempotency
// keys and delivery status.

#include <string>

#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

using mail::Mailbox;
using mail::MessageId;

namespace {

const std::vector<Mailbox> k_people = {"alice", "bob", "carol", "dave"};

mail::ReplyRequest reply_from(const Mailbox& from, const std::string& body)
{
  mail::ReplyRequest reply;
  reply.from = from;
  reply.body = body;
  return reply;
}

} // namespace

void run_conversation_cases(const ProviderMaker& make)
{
  SUBCASE("Reply_SubjectGetsReOnce")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob", "Lunch", "noon?").message;
    const auto first = MUST(f.provider().reply(sent.id, reply_from("bob", "yes"))).message;
    CHECK(first.subject == "Re: Lunch");
    const auto second = MUST(f.provider().reply(first.id, reply_from("alice", "great"))).message;
    CHECK(second.subject == "Re: Lunch");
    CHECK(second.to == std::vector<Mailbox>{"bob"});
    CHECK(second.thread_id == sent.thread_id);
    auto explicit_subject = reply_from("bob", "also");
    explicit_subject.subject = "Different";
    CHECK(MUST(f.provider().reply(sent.id, explicit_subject)).message.subject == "Different");
    const auto shouting = f.send("alice", "bob", "RE: loud", "x").message;
    CHECK(MUST(f.provider().reply(shouting.id, reply_from("bob", "ok"))).message.subject == "RE: loud");
  }

  SUBCASE("Reply_OnlyToSenderUnlessAll")
  {
    Fixture f(make, k_people);
    if (f.caps().multi_recipient) {
      auto request = f.request("alice", {"bob", "carol"});
      if (f.caps().cc) {
        request.cc = {"dave"};
      }
      const auto sent = f.send(request).message;
      const auto plain = MUST(f.provider().reply(sent.id, reply_from("bob", "to alice")));
      CHECK(plain.recipients == std::vector<Mailbox>{"alice"});
      CHECK(f.inbox_ids("carol") == std::vector<MessageId>{sent.id});

      auto all = reply_from("carol", "to everyone");
      all.reply_all = true;
      const auto everyone = MUST(f.provider().reply(sent.id, all));
      const std::vector<Mailbox> expected =
          f.caps().cc ? std::vector<Mailbox>{"alice", "bob", "dave"} : std::vector<Mailbox>{"alice", "bob"};
      CHECK(sorted(everyone.recipients) == expected);
      CHECK(everyone.message.to.front() == "alice");
      CHECK(everyone.message.thread_id == sent.thread_id);
      CHECK(f.inbox_ids("carol").size() == 1); // not to the replier
      CHECK(f.inbox_ids("bob").size() == 2);
    }
  }

  SUBCASE("Thread_ByMessageId")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    f.tick();
    const auto replied = MUST(f.provider().reply(sent.id, reply_from("bob", "back"))).message;
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

  SUBCASE("Thread_OnlyMessagesTheViewerSentOrReceived")
  {
    Fixture f(make, k_people);
    if (f.caps().multi_recipient) {
      const auto sent = f.send(f.request("alice", {"bob", "carol"})).message;
      f.tick();
      const auto replied = MUST(f.provider().reply(sent.id, reply_from("bob", "only alice"))).message;
      CHECK(ids_of(MUST(f.provider().thread("carol", sent.thread_id)).messages)
            == std::vector<MessageId>{sent.id});
      CHECK(MUST(f.provider().thread("alice", sent.thread_id)).messages.size() == 2);
      CHECK(MUST(f.provider().thread("bob", replied.id)).messages.size() == 2);
      const auto outsider = MUST(f.provider().thread("dave", sent.id));
      CHECK(outsider.messages.empty());
    }
  }

  SUBCASE("Thread_IncludesArchivedWithViewerState")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    MUST(f.provider().archive("bob", sent.id));
    const auto thread = MUST(f.provider().thread("bob", sent.thread_id));
    REQUIRE(thread.messages.size() == 1);
    CHECK(thread.messages[0].archived);
    CHECK_FALSE(thread.messages[0].read);
  }

  SUBCASE("Idempotency_ReplayAndConflict")
  {
    Fixture f(make, k_people);
    auto request = f.request("alice", {"bob"}, "deploy", "ship it");
    request.idempotency_key = "key-1";
    if (f.caps().idempotency) {
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

      auto reply = reply_from("bob", "done");
      reply.idempotency_key = "reply-1";
      const auto replied = MUST(f.provider().reply(first.message.id, reply));
      const auto replayed = MUST(f.provider().reply(first.message.id, reply));
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
    if (f.caps().multi_recipient) {
      request.to = {"carol", "bob"};
      expected = {"carol", "bob"};
      if (f.caps().cc) {
        request.cc = {"dave"};
        expected.push_back("dave");
      }
    }
    const auto sent = f.send(request).message;
    if (f.caps().status) {
      f.tick();
      f.read("bob", sent.id);
      MUST(f.provider().archive("bob", sent.id));
      const auto status = MUST(f.provider().status("alice", sent.id));
      REQUIRE(status.size() == expected.size());
      for (std::size_t i = 0; i < status.size(); ++i) {
        const mail::DeliveryStatus& row = status[i];
        INFO("row ", i, ": ", row.recipient);
        CHECK(row.recipient == expected[i]);
        CHECK(row.kind == (row.recipient == "dave" ? "cc" : "to"));
        CHECK(row.delivered_at == sent.created_at);
        CHECK(row.read_at.has_value() == (row.recipient == "bob"));
        CHECK(row.archived_at.has_value() == (row.recipient == "bob"));
        if (row.read_at) {
          CHECK(*row.read_at >= row.delivered_at);
        }
      }
      CHECK(MUST(f.provider().status("bob", sent.id)).size() == expected.size());
    } else {
      CHECK(code_of(f.provider().status("alice", sent.id)) == "unsupported");
    }
  }
}

} // namespace mailroom::testing::contract
