// mailroom's contract cases about the sent view and the filters of inbox and sent (contract
// "Views, search and filters"): order, totals, recipients summaries, and every filter.

#include <string>

#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

using mail::Box;
using mail::Change;
using mail::Mailbox;
using mail::MessageId;

namespace {

const std::vector<Mailbox> k_people = {"alice", "bob", "carol", "dave"};

mail::ListQuery list_of(const Mailbox& mailbox, Box box, mail::Filters filters = {})
{
  mail::ListQuery query;
  query.mailbox = mailbox;
  query.box = box;
  query.filters = std::move(filters);
  return query;
}

// The ids `query` lists; requires success and a total that agrees with an unlimited list.
std::vector<MessageId> listed(Fixture& f, const mail::ListQuery& query)
{
  const mail::ListResult result = MUST(f.provider().list(query));
  if (!query.limit) {
    CHECK(result.total == static_cast<std::int64_t>(result.messages.size()));
    CHECK_FALSE(result.has_more());
  }
  std::vector<mail::Message> messages;
  for (const mail::ListedMessage& item : result.messages) {
    CHECK(item.summary.has_value() == (query.box == Box::sent));
    messages.push_back(item.message);
  }
  if (query.box == Box::inbox) {
    check_inbox_order(messages);
  }
  if (query.box == Box::sent) {
    for (std::size_t i = 1; i < messages.size(); ++i) {
      CHECK(messages[i - 1].created_at >= messages[i].created_at); // newest first
    }
  }
  return ids_of(messages);
}

mail::DeliverySummary summary_of(Fixture& f, const Mailbox& sender, const MessageId& id)
{
  const auto result = MUST(f.provider().list(list_of(sender, Box::sent)));
  for (const mail::ListedMessage& item : result.messages) {
    if (item.message.id == id) {
      REQUIRE(item.summary.has_value());
      return *item.summary;
    }
  }
  FAIL("message ", id, " is not in the sent list of ", sender);
  return {};
}

} // namespace

void run_list_cases(const ProviderMaker& make)
{
  SUBCASE("Sent_NewestFirstWithRecipientSummaries")
  {
    Fixture f(make, k_people);
    const auto one = f.send("alice", "bob", "one", "first").message;
    f.tick();
    if (!f.facets().views) { // views: filters, sent and search
      CHECK(code_of(f.provider().list(list_of("alice", Box::sent))) == "unsupported");
      mail::Filters filters;
      filters.from = "alice";
      CHECK(code_of(f.provider().list(list_of("bob", Box::inbox, filters))) == "unsupported");
      return;
    }
    auto request = f.request("alice", {"bob", "carol"}, "two", "please do this");
    request.type = "task_request";
    const auto two = f.send(request).message;
    f.tick();
    f.send("bob", "alice", "not mine", "from bob");
    f.tick();
    const auto three = f.send("alice", "dave", "three", "third").message;

    const std::vector<MessageId> newest_first = {three.id, two.id, one.id};
    const auto ids = listed(f, list_of("alice", Box::sent));
    CHECK(sorted(ids) == sorted(newest_first));
    if (f.can_tick()) {
      CHECK(ids == newest_first);
    }
    for (const auto& item : MUST(f.provider().list(list_of("alice", Box::sent))).messages) {
      CHECK_FALSE(item.message.state.has_value()); // the sender is not a recipient
    }
    CHECK(listed(f, list_of("dave", Box::sent)).empty());

    mail::DeliverySummary s = summary_of(f, "alice", two.id);
    CHECK(s.recipients == 2);
    CHECK(s.read == 0);
    CHECK(s.awaiting_ack == 2);
    CHECK(s.acked == 0);
    f.read("bob", two.id);
    f.reply("carol", two.id, "done"); // replying reads and acks carol's delivery
    CHECK(f.change("bob", two.id, Change::archive).ok());
    s = summary_of(f, "alice", two.id);
    CHECK(s.read == 2);
    CHECK(s.archived == 1);
    CHECK(s.acked == 1);
    CHECK(s.awaiting_ack == 1);
    CHECK(s.failed == 0);
    s = summary_of(f, "alice", one.id);
    CHECK(s.recipients == 1);
    CHECK(s.awaiting_ack == 0); // a plain message is not ack-tracked

    // A limit cuts the page, not the total.
    auto limited = list_of("alice", Box::sent);
    limited.limit = 2;
    const auto page = MUST(f.provider().list(limited));
    CHECK(page.messages.size() == 2);
    CHECK(page.total == 3);
    CHECK(page.has_more());
    if (f.can_tick()) {
      CHECK(ids_of(page.messages) == std::vector<MessageId>{three.id, two.id});
    }
  }

  SUBCASE("Filters_NarrowInboxAndSent")
  {
    Fixture f(make, k_people);
    if (!f.facets().views) { // views: filters, sent and search
      return;                // covered above
    }
    const mail::UnixMillis start = f.now();
    const auto m1 = f.send("alice", "bob", "alpha", "first").message;
    f.tick();
    auto urgent = f.request("carol", {"bob"}, "beta", "second");
    urgent.type = "task_request";
    urgent.priority = mail::Priority::urgent;
    const auto m2 = f.send(urgent).message;
    f.tick();
    auto low = f.request("alice", {"bob"}, "gamma", "third");
    low.cc = {"dave"};
    low.priority = mail::Priority::low;
    const auto m3 = f.send(low).message;
    f.tick();
    const auto m4 = f.send("alice", "dave", "delta", "not for bob").message;
    const auto all_of_bob = sorted({m1.id, m2.id, m3.id});

    const auto bob = [&](mail::Filters filters, bool include_read = false) {
      auto query = list_of("bob", Box::inbox, std::move(filters));
      query.include_read = include_read;
      return sorted(listed(f, query));
    };
    mail::Filters from_alice;
    from_alice.from = "alice";
    CHECK(bob(from_alice) == sorted({m1.id, m3.id}));
    mail::Filters to_dave;
    to_dave.to = "dave";
    CHECK(bob(to_dave) == std::vector<MessageId>{m3.id});
    mail::Filters tasks;
    tasks.types = {"task_request"};
    CHECK(bob(tasks) == std::vector<MessageId>{m2.id});
    tasks.types = {"task_request", "message"};
    CHECK(bob(tasks) == all_of_bob);
    mail::Filters urgent_only;
    urgent_only.priority = mail::Priority::urgent;
    CHECK(bob(urgent_only) == std::vector<MessageId>{m2.id});
    mail::Filters in_thread;
    in_thread.thread = m1.thread_id;
    CHECK(bob(in_thread) == std::vector<MessageId>{m1.id});
    if (f.can_tick()) {
      mail::Filters since;
      since.since = start + 1000; // at or after
      CHECK(bob(since) == sorted({m2.id, m3.id}));
      mail::Filters until;
      until.until = start + 1000; // before
      CHECK(bob(until) == std::vector<MessageId>{m1.id});
      mail::Filters window;
      window.since = start + 1000;
      window.until = start + 2000;
      CHECK(bob(window) == std::vector<MessageId>{m2.id});
    }

    // Read and archived state: the inbox hides read mail unless --all, and --unread hides it
    // again; --archived lists the archive instead.
    f.read("bob", m1.id);
    CHECK(f.change("bob", m2.id, Change::archive).ok());
    CHECK(bob(from_alice) == std::vector<MessageId>{m3.id});
    CHECK(bob(from_alice, true) == sorted({m1.id, m3.id}));
    mail::Filters unread = from_alice;
    unread.unread = true;
    CHECK(bob(unread, true) == std::vector<MessageId>{m3.id});
    mail::Filters archived;
    archived.archived = true;
    CHECK(bob(archived) == std::vector<MessageId>{m2.id});
    archived.unread = true;
    CHECK(bob(archived) == std::vector<MessageId>{m2.id}); // archived without being read
    archived.from = "alice";
    CHECK(bob(archived).empty());

    // Totals and the unread count come with a filtered inbox.
    auto query = list_of("bob", Box::inbox, from_alice);
    query.include_read = true;
    query.limit = 1;
    const auto page = MUST(f.provider().list(query));
    CHECK(page.messages.size() == 1);
    CHECK(page.total == 2);
    CHECK(page.unread == f.count("bob").unread);

    // sent takes the same filters; --unread and --archived look at the recipients' state.
    const auto sent = [&](mail::Filters filters) {
      return sorted(listed(f, list_of("alice", Box::sent, filters)));
    };
    CHECK(sent({}) == sorted({m1.id, m3.id, m4.id}));
    CHECK(sent(to_dave) == sorted({m3.id, m4.id}));
    mail::Filters low_only;
    low_only.priority = mail::Priority::low;
    CHECK(sent(low_only) == std::vector<MessageId>{m3.id});
    mail::Filters sent_unread;
    sent_unread.unread = true;
    CHECK(sent(sent_unread) == sorted({m3.id, m4.id})); // bob read m1
    mail::Filters from_bob;
    from_bob.from = "bob";
    CHECK(sent(from_bob).empty());
    mail::Filters sent_archived;
    sent_archived.archived = true;
    CHECK(sent(sent_archived).empty());
    CHECK(f.change("dave", m4.id, Change::archive).ok());
    CHECK(sent(sent_archived) == std::vector<MessageId>{m4.id});
  }
}

} // namespace mailroom::testing::contract
