// Gas City's provider conformance cases, second half (the first, and how they are adapted, is in
// provider_contract_gc.cpp): mark read and unread, reply, thread, count, delete, archive one and
// many, and the life cycles.

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

void run_gc_change_cases(const ProviderMaker& make)
{
  SUBCASE("MarkRead_FiltersFromInbox")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    f.expect_outcome(f.change("bob", sent.id, Change::mark_read), ChangeOutcome::changed);
    CHECK(f.inbox_ids("bob").empty());
    f.expect_outcome(f.change("bob", sent.id, Change::mark_read), ChangeOutcome::already);
    CHECK(code_of(f.change("bob", "nonexistent", Change::mark_read)) == "not_found");
  }

  SUBCASE("MarkUnread_RestoresToInbox")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    MUST(f.change("bob", sent.id, Change::mark_read));
    f.expect_outcome(f.change("bob", sent.id, Change::mark_unread), ChangeOutcome::changed);
    CHECK(f.inbox_ids("bob") == std::vector<MessageId>{sent.id});
    f.expect_outcome(f.change("bob", sent.id, Change::mark_unread), ChangeOutcome::already);
    CHECK(code_of(f.change("bob", "nonexistent", Change::mark_unread)) == "not_found");
  }

  SUBCASE("Reply_InheritsThreadID")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    const auto replied = f.reply("bob", sent.id, "back").message;
    CHECK(replied.thread_id == sent.thread_id);
    CHECK(replied.id != sent.id);
  }

  SUBCASE("Reply_SetsReplyTo")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    const auto replied = f.reply("bob", sent.id, "back").message;
    CHECK(replied.reply_to == std::optional<MessageId>(sent.id));
    CHECK(f.get("alice", replied.id).reply_to == std::optional<MessageId>(sent.id));
  }

  SUBCASE("Reply_GoesToOriginalSender")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    const auto receipt = f.reply("bob", sent.id, "back");
    CHECK(receipt.message.to == std::vector<Mailbox>{"alice"});
    CHECK(receipt.message.from == "bob");
    CHECK(receipt.message.body == "back");
    CHECK(receipt.recipients == std::vector<Mailbox>{"alice"});
    CHECK(f.inbox_ids("alice") == std::vector<MessageId>{receipt.message.id});
  }

  SUBCASE("Thread_ReturnsAllInThread")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    f.tick();
    const auto replied = f.reply("bob", sent.id, "back").message;
    const auto thread = MUST(f.provider().thread("alice", sent.thread_id));
    CHECK(thread.thread_id == sent.thread_id);
    REQUIRE(thread.messages.size() == 2);
    check_chronological(thread.messages);
    if (replied.created_at > sent.created_at) {
      CHECK(ids_of(thread.messages) == std::vector<MessageId>{sent.id, replied.id});
    }
  }

  SUBCASE("Thread_Empty")
  {
    // Gas City answers an unknown thread with nothing; mailroom says not_found (exit 3).
    Fixture f(make, k_people);
    f.send("alice", "bob");
    CHECK(code_of(f.provider().thread("bob", "thread-000000000bad")) == "not_found");
  }

  SUBCASE("Count_TotalAndUnread")
  {
    Fixture f(make, k_people);
    const auto first = f.send("alice", "bob", "one", "1").message;
    f.send("alice", "bob", "two", "2");
    MUST(f.change("bob", first.id, Change::mark_read));
    const auto counts = f.count("bob");
    CHECK(counts.total == 2);
    CHECK(counts.unread == 1);
  }

  SUBCASE("Count_EmptyInbox")
  {
    Fixture f(make, k_people);
    f.send("alice", "bob");
    const auto counts = f.count("nobody");
    CHECK(counts.total == 0);
    CHECK(counts.unread == 0);
  }

  SUBCASE("Delete_RemovesFromAll")
  {
    // Delete is Change::remove: an archive on the stores, the script's own delete through exec
    // (archived_instead when the script has none).
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    const auto removed = f.change("bob", sent.id, Change::remove);
    REQUIRE(removed.ok());
    CHECK((*removed == ChangeOutcome::changed || *removed == ChangeOutcome::archived_instead));
    CHECK(code_of(f.change("charlie", sent.id, Change::remove)) == "not_recipient");
    CHECK(code_of(f.change("bob", "nonexistent", Change::remove)) == "not_found");
    CHECK(f.inbox_ids("bob").empty());
    CHECK(f.inbox_ids("bob", true).empty());
    CHECK(f.count("bob").total == 0);
    CHECK(f.check("bob", 10).unread == 0);
  }

  SUBCASE("Archive_RemovesFromInbox")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    MUST(f.change("bob", sent.id, Change::archive));
    CHECK(f.inbox_ids("bob").empty());
    // Archived, not gone.
    const auto archived = f.get("bob", sent.id);
    if (f.full_state()) {
      CHECK(state_of(archived).archived);
    }
  }

  SUBCASE("Archive_AlreadyArchivedReturnsError")
  {
    // mailroom answers `already` (exit 0, "Already archived <id>") instead of an error; every
    // provider can tell this one (a script says "already archived").
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    CHECK(MUST(f.change("bob", sent.id, Change::archive)) == ChangeOutcome::changed);
    CHECK(MUST(f.change("bob", sent.id, Change::archive)) == ChangeOutcome::already);
  }

  SUBCASE("Archive_UnknownIDReturnsError")
  {
    Fixture f(make, k_people);
    f.send("alice", "bob");
    CHECK(code_of(f.change("bob", "nonexistent", Change::archive)) == "not_found");
  }

  // gc's ArchiveMany(ids) is one archive per id, in input order, each with its own outcome (the
  // exec provider runs one script per id): mailroom's `archive ID...` (ops::change) is that loop.
  SUBCASE("ArchiveMany_AllSucceed")
  {
    Fixture f(make, k_people);
    std::vector<MessageId> ids;
    for (int i = 0; i < 3; ++i) {
      ids.push_back(f.send("alice", "bob", "batch", "batch").message.id);
    }
    for (const MessageId& id : ids) {
      CHECK(MUST(f.change("bob", id, Change::archive)) == ChangeOutcome::changed);
    }
    CHECK(f.inbox_ids("bob").empty());
    CHECK(f.count("bob").total == 0);
  }

  SUBCASE("ArchiveMany_EmptyReturnsNil")
  {
    // Archiving no id changes nothing: what a filtered archive that matches nothing chooses from.
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    mail::ListQuery query;
    query.mailbox = "charlie";
    CHECK(MUST(f.provider().list(query)).messages.empty());
    if (mail::Views* views = f.facets().views) {
      mail::OpenDeliveriesQuery open;
      open.from = "charlie";
      CHECK(MUST(views->open_deliveries(open)).empty());
    }
    CHECK(f.inbox_ids("bob") == std::vector<MessageId>{sent.id});
  }

  SUBCASE("ArchiveMany_PreservesInputOrder")
  {
    Fixture f(make, k_people);
    std::vector<MessageId> ids;
    for (int i = 0; i < 3; ++i) {
      ids.push_back(f.send("alice", "bob", "order", "order").message.id);
    }
    const std::vector<MessageId> shuffled = {ids[2], ids[0], ids[1]};
    std::vector<ChangeOutcome> outcomes;
    for (const MessageId& id : shuffled) {
      outcomes.push_back(MUST(f.change("bob", id, Change::archive)));
      // Each id is archived before the next is asked: the order is the caller's.
      CHECK_FALSE(contains(f.inbox_ids("bob"), id));
    }
    CHECK(outcomes == std::vector<ChangeOutcome>(3, ChangeOutcome::changed));
  }

  SUBCASE("ArchiveMany_MixedOpenClosed")
  {
    Fixture f(make, k_people);
    std::vector<MessageId> ids;
    for (int i = 0; i < 3; ++i) {
      ids.push_back(f.send("alice", "bob", "mixed", "mixed").message.id);
    }
    MUST(f.change("bob", ids[1], Change::archive));
    CHECK(MUST(f.change("bob", ids[0], Change::archive)) == ChangeOutcome::changed);
    CHECK(MUST(f.change("bob", ids[1], Change::archive)) == ChangeOutcome::already);
    CHECK(MUST(f.change("bob", ids[2], Change::archive)) == ChangeOutcome::changed);
    CHECK(f.inbox_ids("bob").empty());
  }

  SUBCASE("Lifecycle_SendInboxReadInboxEmpty")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob", "Greetings", "hello").message;
    CHECK(f.inbox_ids("bob").size() == 1);
    CHECK(f.read("bob", sent.id).body == "hello");
    CHECK(f.inbox_ids("bob").empty());
    CHECK(f.get("bob", sent.id).body == "hello");
  }

  SUBCASE("Lifecycle_SendCheckArchiveInboxEmpty")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    CHECK(f.check("bob", 10).unread == 1);
    MUST(f.change("bob", sent.id, Change::archive));
    CHECK(f.inbox_ids("bob").empty());
    CHECK(f.check("bob", 10).unread == 0);
  }

  SUBCASE("Lifecycle_MarkReadUnreadToggle")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    CHECK(f.inbox_ids("bob").size() == 1);
    MUST(f.change("bob", sent.id, Change::mark_read));
    CHECK(f.inbox_ids("bob").empty());
    MUST(f.change("bob", sent.id, Change::mark_unread));
    CHECK(f.inbox_ids("bob") == std::vector<MessageId>{sent.id});
  }
}

} // namespace mailroom::testing::contract
