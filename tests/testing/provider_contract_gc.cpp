// Gas City's 36 provider conformance cases (gascity's internal/mail/mailtest/conformance.go;
// docs/gas-city.md), adapted to mailroom's per-recipient API: Inbox(r) is list(r), Read(id) is
// read(r, id, deliver that succeeds), Delete is change(remove), a second archive answers
// `already`, unknown ids are not_found, and an unknown thread is not_found too (cli-contract: an
// unknown id is always exit 3). This file has sending and reading; provider_contract_gc_changes.cpp
// the changes (mark read and unread, reply, thread, count, delete, archive) and the life cycles.

#include <cstdlib>

#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

using mail::Change;
using mail::ChangeOutcome;
using mail::Mailbox;
using mail::MessageId;

namespace {

const std::vector<Mailbox> k_people = {"alice", "bob", "charlie"};

} // namespace

void run_gc_cases(const ProviderMaker& make)
{
  SUBCASE("Send_ReturnsMatchingFields")
  {
    Fixture f(make, k_people);
    const auto receipt = f.send("alice", "bob", "Greetings", "hello");
    const mail::Message& sent = receipt.message;
    CHECK_FALSE(sent.id.empty());
    CHECK(sent.from == "alice");
    CHECK(sent.to == std::vector<Mailbox>{"bob"});
    CHECK(sent.cc.empty());
    CHECK(sent.subject == "Greetings");
    CHECK(sent.body == "hello");
    CHECK_FALSE(sent.thread_id.empty());
    CHECK_FALSE(sent.reply_to.has_value());
    CHECK(sent.priority == mail::Priority::normal);
    CHECK(sent.type == "message");
    CHECK(receipt.recipients == std::vector<Mailbox>{"bob"});
    CHECK_FALSE(receipt.replayed);
  }

  SUBCASE("Send_AssignsUniqueIDs")
  {
    Fixture f(make, k_people);
    const auto first = f.send("alice", "bob", "one", "1").message;
    const auto second = f.send("alice", "bob", "two", "2").message;
    CHECK(first.id != second.id);
    // Every send starts its own thread.
    CHECK(first.thread_id != second.thread_id);
  }

  SUBCASE("Send_SetsRecentCreatedAt")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob", "Greetings", "hello").message;
    CHECK(std::llabs(sent.created_at - f.now()) <= 60 * 1000);
    CHECK(f.get("bob", sent.id).created_at == sent.created_at);
  }

  SUBCASE("Inbox_EmptyReturnsNil")
  {
    Fixture f(make, k_people);
    CHECK(f.inbox_ids("bob").empty());
    CHECK(f.inbox_ids("bob", true).empty());
  }

  SUBCASE("Inbox_ReturnsMessagesSentToRecipient")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob", "Greetings", "hello").message;
    const auto inbox = f.inbox("bob");
    REQUIRE(inbox.size() == 1);
    CHECK(inbox[0].id == sent.id);
    CHECK(inbox[0].from == "alice");
    CHECK(inbox[0].subject == "Greetings");
    CHECK(inbox[0].body == "hello");
    CHECK_FALSE(state_of(inbox[0]).read);
    CHECK_FALSE(state_of(inbox[0]).archived);
  }

  SUBCASE("Inbox_FiltersByRecipient")
  {
    Fixture f(make, k_people);
    const auto to_bob = f.send("alice", "bob", "for bob", "b").message;
    const auto to_charlie = f.send("alice", "charlie", "for charlie", "c").message;
    const auto inbox = f.inbox("bob");
    REQUIRE(inbox.size() == 1);
    CHECK(inbox[0].id == to_bob.id);
    CHECK(inbox[0].to == std::vector<Mailbox>{"bob"});
    CHECK(f.inbox_ids("charlie") == std::vector<MessageId>{to_charlie.id});
    CHECK(f.inbox_ids("alice").empty());
  }

  SUBCASE("Inbox_ExcludesReadMessages")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    f.read("bob", sent.id);
    CHECK(f.inbox_ids("bob").empty());
    if (f.full_state()) {
      CHECK(f.inbox_ids("bob", true) == std::vector<MessageId>{sent.id});
    } else {
      mail::ListQuery all;
      all.mailbox = "bob";
      all.include_read = true;
      CHECK(code_of(f.provider().list(all)) == "unsupported"); // never the unread list passed off as all
    }
  }

  SUBCASE("Check_ReturnsUnreadMessages")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    const auto check = f.check("bob", 10);
    CHECK(check.unread == 1);
    REQUIRE(check.messages.size() == 1);
    CHECK(check.messages[0].id == sent.id);
  }

  SUBCASE("Check_DoesNotMarkAsRead")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    f.check("bob", 10);
    f.check("bob", 0);
    CHECK(f.inbox_ids("bob") == std::vector<MessageId>{sent.id});
    CHECK_FALSE(state_of(f.get("bob", sent.id)).read);
  }

  SUBCASE("Read_ReturnsCorrectMessage")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob", "Greetings", "hello").message;
    const auto message = f.read("bob", sent.id);
    CHECK(message.id == sent.id);
    CHECK(message.from == "alice");
    CHECK(message.to == std::vector<Mailbox>{"bob"});
    CHECK(message.subject == "Greetings");
    CHECK(message.body == "hello");
    // The message as it was before marking.
    CHECK_FALSE(state_of(message).read);
  }

  SUBCASE("Read_MarksAsRead")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    f.read("bob", sent.id);
    CHECK(f.inbox_ids("bob").empty());
    CHECK(state_of(f.get("bob", sent.id)).read);
  }

  SUBCASE("Read_MessageStillAccessible")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob", "Greetings", "hello").message;
    f.read("bob", sent.id);
    const auto message = f.get("bob", sent.id);
    CHECK(message.id == sent.id);
    CHECK(message.body == "hello");
    // Reading again is fine.
    CHECK(f.read("bob", sent.id).body == "hello");
  }

  SUBCASE("Read_UnknownIDReturnsError")
  {
    Fixture f(make, k_people);
    f.send("alice", "bob");
    bool delivered = false;
    const auto result = f.provider().read(actor("bob"), "nonexistent", [&](const mail::Message&) {
      delivered = true;
      return Result<void>();
    });
    CHECK(code_of(result) == "not_found");
    CHECK_FALSE(delivered);
  }

  SUBCASE("Get_ReturnsMessage")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob", "Greetings", "hello").message;
    const auto message = f.get("bob", sent.id);
    CHECK(message.id == sent.id);
    CHECK(message.from == "alice");
    CHECK(message.to == std::vector<Mailbox>{"bob"});
    CHECK(message.subject == "Greetings");
    CHECK(message.body == "hello");
    CHECK(message.thread_id == sent.thread_id);
    CHECK_FALSE(state_of(message).read);
    CHECK_FALSE(state_of(message).archived);
  }

  SUBCASE("Get_DoesNotMarkRead")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    f.get("bob", sent.id);
    f.get("bob", sent.id);
    CHECK(f.inbox_ids("bob") == std::vector<MessageId>{sent.id});
  }

  SUBCASE("Get_UnknownIDErrors")
  {
    Fixture f(make, k_people);
    f.send("alice", "bob");
    CHECK(code_of(f.provider().get("bob", "nonexistent")) == "not_found");
  }

  run_gc_change_cases(make);
}

} // namespace mailroom::testing::contract
