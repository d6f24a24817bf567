// mailroom's contract cases about per-recipient state: read, archive and their views.

#include <string>

#include "mail/audience.hpp"
#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

using mail::Change;
using mail::ChangeOutcome;
using mail::Mailbox;
using mail::MessageId;

namespace {

const std::vector<Mailbox> k_people = {"alice", "bob", "carol", "dave", "erin"};

} // namespace

void run_state_cases(const ProviderMaker& make)
{
  SUBCASE("Unarchive_RestoresToInbox")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    MUST(f.change("bob", sent.id, Change::archive));
    const auto result = f.change("bob", sent.id, Change::unarchive);
    if (f.facets().unarchive) {
      CHECK(MUST(result) == ChangeOutcome::changed);
      CHECK(f.inbox_ids("bob") == std::vector<MessageId>{sent.id});
      CHECK_FALSE(state_of(f.get("bob", sent.id)).archived);
      f.expect_outcome(f.change("bob", sent.id, Change::unarchive), ChangeOutcome::already);
      CHECK(code_of(f.change("bob", "nonexistent", Change::unarchive)) == "not_found");
    } else {
      CHECK(code_of(result) == "unsupported");
      CHECK(f.inbox_ids("bob").empty());
    }
  }

  SUBCASE("Unarchive_KeepsReadState")
  {
    Fixture f(make, k_people);
    if (f.facets().unarchive) {
      const auto sent = f.send("alice", "bob").message;
      f.read("bob", sent.id);
      MUST(f.change("bob", sent.id, Change::archive));
      MUST(f.change("bob", sent.id, Change::unarchive));
      CHECK(f.inbox_ids("bob").empty());
      CHECK(f.inbox_ids("bob", true) == std::vector<MessageId>{sent.id});
      CHECK(f.count("bob").total == 1);
      CHECK(f.count("bob").unread == 0);
    }
  }

  SUBCASE("MultiRecipient_ReadByOneStaysUnreadForOthers")
  {
    Fixture f(make, k_people);
    const auto request = f.request("alice", {"bob", "carol", "dave"});
    if (f.facets().whole_sends) {
      const auto receipt = f.send(request);
      const MessageId id = receipt.message.id;
      CHECK(receipt.recipients == std::vector<Mailbox>{"bob", "carol", "dave"});
      CHECK(receipt.message.to == std::vector<Mailbox>{"bob", "carol", "dave"});
      f.read("bob", id);
      CHECK(f.inbox_ids("bob").empty());
      CHECK(state_of(f.get("bob", id)).read);
      for (const Mailbox other : {"carol", "dave"}) {
        INFO("recipient ", other);
        CHECK(f.inbox_ids(other) == std::vector<MessageId>{id});
        CHECK(f.count(other).unread == 1);
        CHECK(f.check(other, 5).unread == 1);
        CHECK_FALSE(state_of(f.get(other, id)).read);
      }
    } else {
      CHECK(code_of(f.provider().send(request)) == "unsupported");
      CHECK(f.inbox_ids("bob").empty());
      CHECK(f.inbox_ids("carol").empty());
    }
  }

  SUBCASE("Broadcast_ReadByOneStaysUnreadForOthers")
  {
    Fixture f(make, k_people);
    const auto request = f.request("alice", {"@all"});
    if (f.facets().registry) {
      const auto receipt = f.send(request);
      const MessageId id = receipt.message.id;
      CHECK(sorted(receipt.recipients) == std::vector<Mailbox>{"bob", "carol", "dave", "erin"});
      CHECK(receipt.message.addressed_to == std::vector<std::string>{"@all"});
      f.read("carol", id);
      CHECK(f.inbox_ids("carol").empty());
      for (const Mailbox other : {"bob", "dave", "erin"}) {
        INFO("recipient ", other);
        CHECK(f.inbox_ids(other) == std::vector<MessageId>{id});
        CHECK(f.count(other).unread == 1);
        CHECK(f.check(other, 5).unread == 1);
      }
      CHECK(f.inbox_ids("alice").empty());
    } else {
      CHECK(code_of(f.provider().send(request)) == "unsupported");
    }
  }

  SUBCASE("Archive_IsPerRecipientAndReversible")
  {
    Fixture f(make, k_people);
    if (f.facets().whole_sends && f.facets().unarchive) {
      const MessageId id = f.send(f.request("alice", {"bob", "carol"})).message.id;
      CHECK(MUST(f.change("bob", id, Change::archive)) == ChangeOutcome::changed);
      CHECK(f.inbox_ids("bob").empty());
      CHECK(state_of(f.get("bob", id)).archived);
      CHECK(f.inbox_ids("carol") == std::vector<MessageId>{id});
      CHECK_FALSE(state_of(f.get("carol", id)).archived);
      CHECK(MUST(f.change("carol", id, Change::archive)) == ChangeOutcome::changed);
      CHECK(MUST(f.change("bob", id, Change::unarchive)) == ChangeOutcome::changed);
      CHECK(f.inbox_ids("bob") == std::vector<MessageId>{id});
      CHECK(f.inbox_ids("carol").empty());
    }
  }

  SUBCASE("Sender_SeesOwnMessageAndHasNothingToMark")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    const auto own = f.get("alice", sent.id);
    CHECK(own.id == sent.id);
    // A sender who is not a recipient has no delivery, so no state (it used to read as "read").
    CHECK_FALSE(own.state.has_value());
    CHECK_FALSE(own.unread());
    CHECK_FALSE(sent.state.has_value()); // the receipt shows the message as its sender sees it
    int delivered = 0;
    const auto read = f.provider().read(actor("alice"), sent.id, [&](const mail::Message& message) {
      ++delivered;
      CHECK_FALSE(message.state.has_value());
      return Result<void>();
    });
    CHECK(code_of(read) == "ok");
    CHECK(delivered == 1);
    if (read.ok()) {
      // What the CLI says on stderr (contract "Gas City, both ways": sender_read).
      CHECK(mail::sender_read_note(*read, "alice") ==
            "you sent " + sent.id + "; bob's copy is unchanged (use --for bob)");
      CHECK_FALSE(mail::sender_read_note(*read, "bob").has_value());
    }
    // Anyone else who is not a recipient is still refused.
    CHECK(code_of(f.provider().read(actor("carol"), sent.id,
                                    [](const mail::Message&) { return Result<void>(); })) == "not_recipient");
    CHECK(code_of(f.change("alice", sent.id, Change::mark_read)) == "not_recipient");
    CHECK(code_of(f.change("alice", sent.id, Change::archive)) == "not_recipient");
    CHECK(f.inbox_ids("alice", true).empty());
    CHECK(f.count("alice").total == 0);
    // The recipient's state is untouched by the sender's read.
    CHECK(f.inbox_ids("bob") == std::vector<MessageId>{sent.id});
  }

  SUBCASE("Read_FailedDeliverLeavesUnread")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob", "Greetings", "hello").message;
    std::string seen_body;
    const auto result = f.provider().read(actor("bob"), sent.id, [&](const mail::Message& message) {
      seen_body = message.body;
      return Result<void>(make_error(ErrorCode::store_error, "output closed"));
    });
    CHECK(code_of(result) == "store_error");
    CHECK(seen_body == "hello");
    CHECK(f.inbox_ids("bob") == std::vector<MessageId>{sent.id});
    CHECK_FALSE(state_of(f.get("bob", sent.id)).read);
    CHECK(f.count("bob").unread == 1);
    f.read("bob", sent.id);
    CHECK(f.inbox_ids("bob").empty());
  }

  SUBCASE("Read_ReturnsStateBeforeMarkingAndWorksWhenArchived")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    CHECK_FALSE(state_of(f.read("bob", sent.id)).read);
    CHECK(state_of(f.read("bob", sent.id)).read);
    MUST(f.change("bob", sent.id, Change::mark_unread));
    MUST(f.change("bob", sent.id, Change::archive));
    const auto archived = f.read("bob", sent.id);
    CHECK(state_of(archived).archived == f.full_state());
    CHECK_FALSE(state_of(archived).read);
    const auto after = f.get("bob", sent.id);
    CHECK(state_of(after).read);
    CHECK(state_of(after).archived == f.full_state());
  }

  SUBCASE("MarkUnread_OnArchivedStaysOutOfInbox")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    f.read("bob", sent.id);
    MUST(f.change("bob", sent.id, Change::archive));
    CHECK(MUST(f.change("bob", sent.id, Change::mark_unread)) == ChangeOutcome::changed);
    CHECK(f.inbox_ids("bob").empty());
    CHECK(f.count("bob").unread == 0);
    CHECK(f.check("bob", 5).unread == 0);
  }

  SUBCASE("Inbox_PriorityThenOldest")
  {
    Fixture f(make, k_people);
    if (f.facets().whole_sends) { // priority travels with the message
      const auto send = [&](mail::Priority priority, const std::string& subject) {
        auto request = f.request("alice", {"bob"}, subject, subject);
        request.priority = priority;
        const auto message = f.send(request).message;
        CHECK(message.priority == priority);
        f.tick();
        return message;
      };
      const auto a = send(mail::Priority::normal, "a");
      const auto b = send(mail::Priority::urgent, "b");
      const auto c = send(mail::Priority::low, "c");
      const auto d = send(mail::Priority::urgent, "d");
      const auto e = send(mail::Priority::normal, "e");
      const auto inbox = f.inbox("bob");
      REQUIRE(inbox.size() == 5);
      CHECK(inbox[0].priority == mail::Priority::urgent);
      CHECK(inbox[1].priority == mail::Priority::urgent);
      CHECK(inbox[4].id == c.id);
      if (f.can_tick()) {
        CHECK(ids_of(inbox) == std::vector<MessageId>{b.id, d.id, a.id, e.id, c.id});
      }
      CHECK(ids_of(f.check("bob", 5).messages) == ids_of(inbox));
    }
  }

  SUBCASE("Inbox_TiesOnCreatedAtKeepSendOrder")
  {
    // Inbox order is priority, then created_at, then arrival: messages sent in the same
    // millisecond stay in the order they were sent, whatever their (random) ids.
    Fixture f(make, k_people);
    std::vector<MessageId> sent;
    for (int i = 0; i < 8; ++i) {
      sent.push_back(f.send("alice", "bob", "same time " + std::to_string(i), "b").message.id);
    }
    if (f.can_tick()) {
      CHECK(f.inbox_ids("bob") == sent);
      CHECK(ids_of(f.check("bob", 8).messages) == sent);
      CHECK(MUST(f.provider().mark_all_read("bob")) == sent);
    }
  }

  SUBCASE("Inbox_LimitAndIncludeRead")
  {
    Fixture f(make, k_people);
    std::vector<MessageId> sent;
    for (int i = 0; i < 4; ++i) {
      sent.push_back(f.send("alice", "bob", "n" + std::to_string(i), "b").message.id);
      f.tick();
    }
    const auto all_unread = f.inbox_ids("bob");
    REQUIRE(all_unread.size() == 4);
    const auto first_two = ids_of(f.inbox("bob", false, 2));
    CHECK(first_two == std::vector<MessageId>{all_unread[0], all_unread[1]});
    if (!f.full_state()) {
      // Nothing read yet: listing all is listing the unread.
      CHECK(ids_of(f.inbox("bob", true)).size() == 4);
    }
    f.read("bob", sent[1]);
    CHECK(f.inbox_ids("bob").size() == 3);
    if (f.full_state()) {
      const auto listed = f.inbox("bob", true);
      CHECK(listed.size() == 4);
      for (const mail::Message& message : listed) {
        CHECK(state_of(message).read == (message.id == sent[1]));
      }
    } else {
      mail::ListQuery all;
      all.mailbox = "bob";
      all.include_read = true;
      CHECK(code_of(f.provider().list(all)) == "unsupported");
    }
    CHECK(f.inbox("bob", false, 0).empty());
  }

  SUBCASE("Check_LimitKeepsFullCountAndNeverMarks")
  {
    Fixture f(make, k_people);
    for (int i = 0; i < 5; ++i) {
      f.send("alice", "bob", "n" + std::to_string(i), "b");
      f.tick();
    }
    const auto inbox = f.inbox_ids("bob");
    const auto check = f.check("bob", 2);
    CHECK(check.unread == 5);
    CHECK(ids_of(check.messages) == std::vector<MessageId>{inbox[0], inbox[1]});
    const auto none = f.check("bob", 0);
    CHECK(none.unread == 5);
    CHECK(none.messages.empty());
    CHECK(ids_of(f.check("bob", 100).messages) == inbox);
    CHECK(f.count("bob").unread == 5);
    CHECK(f.check("nobody", 3).unread == 0);
  }

  SUBCASE("MarkAllRead_MarksOnlyTheCallersUnread")
  {
    Fixture f(make, k_people);
    const auto one = f.send("alice", "bob", "1", "1").message.id;
    const auto two = f.send("alice", "bob", "2", "2").message.id;
    const auto three = f.send("alice", "bob", "3", "3").message.id;
    const auto other = f.send("alice", "carol", "4", "4").message.id;
    MUST(f.change("bob", two, Change::mark_read));
    MUST(f.change("bob", three, Change::archive));
    CHECK(MUST(f.provider().mark_all_read("bob")) == std::vector<MessageId>{one});
    CHECK(f.inbox_ids("bob").empty());
    CHECK(MUST(f.provider().mark_all_read("bob")).empty());
    CHECK_FALSE(state_of(f.get("bob", three)).read); // archived messages are left alone
    CHECK(f.inbox_ids("carol") == std::vector<MessageId>{other});
  }

  SUBCASE("Inbox_IsCaseSensitive")
  {
    Fixture f(make, k_people);
    f.send("alice", "bob");
    CHECK(f.inbox_ids("Bob").empty());
    CHECK(f.count("Bob").total == 0);
    CHECK(f.count("bob").total == 1);
  }

  SUBCASE("Body_TextRoundTripsExactly")
  {
    Fixture f(make, k_people);
    const std::string subject = "Ünïcode \"quotes\" \\ and 'apostrophes' $(echo no) `nope`";
    const std::string body = "line one\nline two\twith tab\r\n\n  indented  \n{\"json\": [1, 2]}\n";
    const auto sent = f.send("alice", "bob", subject, body).message;
    const auto got = f.get("bob", sent.id);
    CHECK(got.subject == subject);
    CHECK(got.body == body);
  }

  SUBCASE("Body_InvalidUtf8RoundTripsExactly")
  {
    Fixture f(make, k_people);
    const std::string body = std::string("bytes \xff\xfe and a lone \xc3 end");
    const auto sent = f.send("alice", "bob", "raw", body).message;
    if (f.raw_bytes()) {
      CHECK(f.get("bob", sent.id).body == body);
    } else {
      // Like Go's json.Marshal: each invalid byte becomes U+FFFD, the rest is kept.
      const std::string replaced = "bytes \xEF\xBF\xBD\xEF\xBF\xBD and a lone \xEF\xBF\xBD end";
      CHECK(sent.body == replaced);
      CHECK(f.get("bob", sent.id).body == replaced);
    }
  }
}

} // namespace mailroom::testing::contract
