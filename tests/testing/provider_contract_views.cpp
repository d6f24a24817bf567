// mailroom's contract cases about who may look and who may act: views are open (get, thread,
// status and trace work for any caller, and a viewer who is not a recipient sees no state), changes
// are not (not_recipient), and an unknown id is not_found everywhere.

#include <string>

#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

using mail::Change;
using mail::Mailbox;
using mail::MessageId;

namespace {

const std::vector<Mailbox> k_people = {"alice", "bob", "carol", "dave"};

} // namespace

void run_view_cases(const ProviderMaker& make)
{
  SUBCASE("NotRecipient_CannotActOnOthersMail")
  {
    Fixture f(make, k_people);
    const MessageId id = f.send("alice", "bob").message.id;
    auto& p = f.provider();
    bool delivered = false;
    const auto read = p.read(actor("carol"), id, [&](const mail::Message&) {
      delivered = true;
      return Result<void>();
    });
    CHECK(code_of(read) == "not_recipient");
    CHECK_FALSE(delivered);
    CHECK(code_of(f.change("carol", id, Change::mark_read)) == "not_recipient");
    CHECK(code_of(f.change("carol", id, Change::mark_unread)) == "not_recipient");
    CHECK(code_of(f.change("carol", id, Change::archive)) == "not_recipient");
    // Without unarchive, refusing the stranger first is as good as refusing the operation.
    const std::string stranger_unarchive = code_of(f.change("carol", id, Change::unarchive));
    CHECK((stranger_unarchive == "not_recipient" ||
           (!f.facets().unarchive && stranger_unarchive == "unsupported")));
    CHECK(code_of(p.reply(Fixture::reply_request("carol", id, "me too"))) == "not_recipient");
    CHECK(f.inbox_ids("alice").empty());
    // Views are open: a stranger may look, and sees no state.
    const auto seen = f.get("carol", id);
    CHECK(seen.id == id);
    CHECK_FALSE(seen.state.has_value());
    const auto thread = MUST(p.thread("carol", id));
    CHECK(ids_of(thread.messages) == std::vector<MessageId>{id});
    CHECK(f.inbox_ids("bob") == std::vector<MessageId>{id});
    CHECK_FALSE(state_of(f.get("bob", id)).read);
  }

  SUBCASE("NotFound_IsDistinctFromNotRecipient")
  {
    Fixture f(make, k_people);
    const MessageId id = f.send("alice", "bob").message.id;
    auto& p = f.provider();
    const MessageId missing = "nonexistent";
    CHECK(code_of(p.get("bob", missing)) == "not_found");
    CHECK(code_of(p.get("carol", missing)) == "not_found");
    CHECK(code_of(p.get("carol", id)) == "ok");
    CHECK(code_of(p.read(actor("bob"), missing, deliver_ok)) == "not_found");
    CHECK(code_of(p.read(actor("carol"), id, deliver_ok)) == "not_recipient");
    CHECK(code_of(f.change("bob", missing, Change::mark_read)) == "not_found");
    CHECK(code_of(f.change("bob", missing, Change::mark_unread)) == "not_found");
    CHECK(code_of(f.change("bob", missing, Change::archive)) == "not_found");
    const std::string missing_unarchive = code_of(f.change("bob", missing, Change::unarchive));
    CHECK(
        (missing_unarchive == "not_found" || (!f.facets().unarchive && missing_unarchive == "unsupported")));
    CHECK(code_of(reach(p).status(missing)) == (f.facets().views ? "not_found" : "unsupported"));
    CHECK(code_of(reach(p).trace("alice", missing)) == (f.facets().views ? "not_found" : "unsupported"));
    CHECK(code_of(p.reply(Fixture::reply_request("bob", missing, "?"))) == "not_found");
    CHECK(code_of(p.thread("bob", missing)) == "not_found");
  }

  SUBCASE("State_IsNulloptForNonRecipients")
  {
    // The sender and any other caller see the message without state (the sender used to see it
    // as read); each recipient sees its own.
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    f.read("bob", sent.id);
    for (const Mailbox viewer : {"alice", "carol", "nobody"}) {
      INFO("viewer ", viewer);
      const auto seen = f.get(viewer, sent.id);
      CHECK_FALSE(seen.state.has_value());
      CHECK_FALSE(seen.unread());
      const auto thread = MUST(f.provider().thread(viewer, sent.thread_id));
      REQUIRE(thread.messages.size() == 1);
      CHECK_FALSE(thread.messages[0].state.has_value());
    }
    CHECK(state_of(f.get("bob", sent.id)).read);
    const auto thread = MUST(f.provider().thread("bob", sent.thread_id));
    REQUIRE(thread.messages.size() == 1);
    if (f.full_state()) {
      CHECK(state_of(thread.messages[0]).read);
    }
  }

  SUBCASE("Thread_IsOpenAndListsEveryMessage")
  {
    // A thread lists every message of the conversation, whoever asks (it used to list only what
    // the viewer sent or received), each with the viewer's own state where it has one.
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    f.tick();
    const auto replied = f.reply("bob", sent.id, "back").message;
    f.tick();
    const auto again = f.reply("alice", replied.id, "and again").message;
    const std::vector<MessageId> all = {sent.id, replied.id, again.id};
    for (const Mailbox viewer : {"alice", "bob", "carol"}) {
      for (const std::string& key : {sent.thread_id, sent.id, again.id}) {
        INFO("viewer ", viewer, ", thread of ", key);
        const auto thread = MUST(f.provider().thread(viewer, key));
        CHECK(thread.thread_id == sent.thread_id);
        check_chronological(thread.messages);
        CHECK(sorted(ids_of(thread.messages)) == sorted(all));
        if (f.can_tick()) {
          CHECK(ids_of(thread.messages) == all);
        }
        for (const mail::Message& message : thread.messages) {
          const bool recipient = contains(message.to, viewer) || contains(message.cc, viewer);
          // Never a state for a non-recipient; a recipient's may be unknown (full_state false).
          CHECK(message.state.has_value() == (recipient && f.full_state()));
        }
      }
    }
  }

  SUBCASE("Views_StatusAndTraceAreOpen")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    f.tick();
    const auto replied = f.reply("bob", sent.id, "back").message;
    auto& p = f.provider();
    if (f.facets().views) {
      const auto status = MUST(reach(p).status(sent.id));
      CHECK(status.message.id == sent.id);
      CHECK_FALSE(status.message.state.has_value());
      REQUIRE(status.deliveries.size() == 1);
      CHECK(status.deliveries[0].recipient == "bob");
      CHECK(status.message.sender_uid == sent.sender_uid);
      CHECK(status.message.sender_host == sent.sender_host);
      // A reply joins its original's trace as a child of the original's span.
      const auto trace = MUST(reach(p).trace("carol", replied.id));
      CHECK(trace.trace_id == sent.trace.trace_id);
      CHECK(ids_of(trace.messages) == std::vector<MessageId>{sent.id, replied.id});
      CHECK(replied.trace.trace_id == sent.trace.trace_id);
      CHECK(replied.trace.parent_span_id == std::optional<std::string>(sent.trace.span_id));
      CHECK_FALSE(sent.trace.parent_span_id.has_value());
      for (const mail::Message& message : trace.messages) {
        CHECK_FALSE(message.state.has_value());
      }
      CHECK(MUST(reach(p).trace("bob", sent.trace.trace_id)).messages.size() == 2);
    } else {
      CHECK(code_of(reach(p).status(sent.id)) == "unsupported");
      CHECK(code_of(reach(p).trace("carol", sent.id)) == "unsupported");
    }
  }

  SUBCASE("Actor_ActsOnTheRecipientsDeliveryAndIsRecorded")
  {
    // An operator (--for, [compat] gc) changes the recipient's delivery, never its own.
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    const mail::Actor for_bob{"bob", "carol"};
    f.tick();
    CHECK(MUST(f.provider().change(for_bob, sent.id, Change::archive)) == mail::ChangeOutcome::changed);
    CHECK(state_of(f.get("bob", sent.id)).archived == f.full_state());
    CHECK(f.inbox_ids("bob").empty());
    int delivered = 0;
    const auto read = MUST(f.provider().read(for_bob, sent.id, [&](const mail::Message&) {
      ++delivered;
      return Result<void>();
    }));
    CHECK(delivered == 1);
    CHECK_FALSE(state_of(read).read);
    CHECK(state_of(f.get("bob", sent.id)).read);
    CHECK_FALSE(f.get("carol", sent.id).state.has_value());
    // A mailbox that is not a recipient cannot be acted for.
    CHECK(code_of(f.provider().change(mail::Actor{"dave", "carol"}, sent.id, Change::mark_read)) ==
          "not_recipient");
    if (f.facets().views) {
      const auto status = MUST(reach(f.provider()).status(sent.id));
      REQUIRE(status.deliveries.size() == 1);
      CHECK(status.deliveries[0].acted_by == std::optional<Mailbox>("carol"));
      REQUIRE(status.deliveries[0].archived_at.has_value());
      CHECK(*status.deliveries[0].archived_at >= sent.created_at);
      if (f.can_tick()) {
        CHECK(*status.deliveries[0].archived_at == f.now());
      }
    }
  }

  SUBCASE("Views_IdPrefixesResolve")
  {
    Fixture f(make, k_people);
    const auto sent = f.send("alice", "bob").message;
    auto& p = f.provider();
    CHECK(MUST(reach(p).resolve_id(sent.id)) == sent.id);
    if (f.facets().views) {
      // A unique prefix of at least four characters after the "mr-", which may be left out.
      const std::string tail = sent.id.substr(sent.id.find('-') + 1);
      CHECK(MUST(reach(p).resolve_id(sent.id.substr(0, sent.id.size() - 1))) == sent.id);
      CHECK(MUST(reach(p).resolve_id(tail.substr(0, 12))) == sent.id);
      // Under four characters is too short (a usage error), not "not found".
      CHECK(code_of(reach(p).resolve_id(tail.substr(0, 3))) == "usage");
      CHECK(code_of(reach(p).resolve_id("gc-999")) == "not_found"); // another system's id is not ours
      CHECK(code_of(reach(p).resolve_id("mr-ffffffffffffffff0")) == "not_found");
    } else {
      // Without views an id is taken as typed.
      CHECK(MUST(reach(p).resolve_id("whatever-typed")) == "whatever-typed");
    }
  }
}

} // namespace mailroom::testing::contract
