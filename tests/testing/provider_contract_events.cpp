// mailroom's contract cases about the event log (contract "Live events", mail/events.hpp): every
// change writes its event, with the delivery's mailbox, the actor and the message id, in the
// change's transaction; a change that fails or changes nothing writes none; seqs only grow and
// are never used twice; retention prunes the oldest, sweep and purge run it. A provider without
// the log answers unsupported.

#include <string>

#include "mail/claims.hpp"
#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

using mail::EventType;

namespace {

const std::vector<Mailbox> k_people = {"alice", "bob", "carol"};

// The events after `after`, requiring success; checks that seqs strictly increase and that each
// is within the page's bounds.
std::vector<mail::Event> events_after(mail::Provider& p, std::int64_t after = 0)
{
  const auto page = MUST(reach(p).events(after, mail::k_max_events_page));
  std::int64_t last = after;
  for (const auto& event : page.events) {
    CHECK(event.seq > last);
    CHECK(event.seq >= page.oldest_kept);
    CHECK(event.seq <= page.newest);
    last = event.seq;
  }
  return page.events;
}

std::int64_t newest(mail::Provider& p)
{
  return MUST(reach(p).events(0, 1)).newest;
}

// "type mailbox actor id" per event, to compare whole lists readably.
std::vector<std::string> described(const std::vector<mail::Event>& events)
{
  std::vector<std::string> out;
  for (const auto& e : events) {
    out.push_back(std::string(mail::to_string(e.type)) + " " + e.mailbox + " " + e.actor + " " +
                  e.message_id);
  }
  return out;
}

std::string line(EventType type, const Mailbox& mailbox, const Mailbox& actor, const MessageId& id)
{
  return std::string(mail::to_string(type)) + " " + mailbox + " " + actor + " " + id;
}

} // namespace

void run_event_cases(const ProviderMaker& make)
{
  SUBCASE("Events_UnsupportedWithoutTheLog")
  {
    Fixture f(make, k_people);
    if (f.facets().events) {
      CHECK(code_of(reach(f.provider()).events(0, 10)) == "ok");
      return;
    }
    CHECK(code_of(reach(f.provider()).events(0, 10)) == "unsupported");
    CHECK(code_of(reach(f.provider()).prune_events(mail::EventRetention{})) == "unsupported");
  }

  SUBCASE("Events_SendWritesOnePerDelivery")
  {
    Fixture f(make, k_people);
    if (!f.facets().events) {
      return;
    }
    auto& p = f.provider();
    CHECK(events_after(p).empty());
    CHECK(newest(p) == 0);
    const auto sent = f.send(f.request("alice", {"bob", "carol"}, "hello", "secret body")).message;
    const auto events = events_after(p);
    CHECK(described(events) == std::vector<std::string>{line(EventType::sent, "bob", "alice", sent.id),
                                                        line(EventType::sent, "carol", "alice", sent.id)});
    for (const auto& e : events) {
      if (f.can_tick()) {
        CHECK(e.at == sent.created_at);
      }
    }
    CHECK(newest(p) == events.back().seq);
    // Paging: after the first, only the second; a limit of one, only the first.
    CHECK(described(events_after(p, events.front().seq)) ==
          std::vector<std::string>{described(events).back()});
    CHECK(MUST(reach(p).events(0, 1)).events.size() == 1);
    CHECK(events_after(p, events.back().seq).empty());
  }

  SUBCASE("Events_EveryChangeWritesItsEventAndNoChangeNone")
  {
    Fixture f(make, k_people);
    if (!f.facets().events) {
      return;
    }
    auto& p = f.provider();
    const auto id = f.send("alice", "bob").message.id;
    const std::int64_t start = newest(p);
    f.read("bob", id);
    f.expect_outcome(f.change("bob", id, Change::mark_read), mail::ChangeOutcome::already);
    f.expect_outcome(f.change("bob", id, Change::mark_unread), mail::ChangeOutcome::changed);
    f.expect_outcome(f.change("bob", id, Change::ack), mail::ChangeOutcome::changed);
    f.expect_outcome(f.change("bob", id, Change::archive), mail::ChangeOutcome::changed);
    f.expect_outcome(f.change("bob", id, Change::archive), mail::ChangeOutcome::already);
    f.expect_outcome(f.change("bob", id, Change::unarchive), mail::ChangeOutcome::changed);
    f.expect_outcome(f.change("bob", id, Change::remove), mail::ChangeOutcome::changed);
    // An operator acting for bob: the mailbox is bob's, the actor the operator.
    CHECK(code_of(p.change(mail::Actor{"bob", "human"}, id, Change::unarchive)) == "ok");
    CHECK(described(events_after(p, start)) ==
          std::vector<std::string>{
              line(EventType::read, "bob", "bob", id), line(EventType::unread, "bob", "bob", id),
              line(EventType::acked, "bob", "bob", id), line(EventType::archived, "bob", "bob", id),
              line(EventType::unarchived, "bob", "bob", id), line(EventType::archived, "bob", "bob", id),
              line(EventType::unarchived, "bob", "human", id)});
  }

  SUBCASE("Events_MarkAllReadAndTakeWriteRead")
  {
    Fixture f(make, k_people);
    if (!f.facets().events) {
      return;
    }
    auto& p = f.provider();
    const auto first = f.send("alice", "bob", "one").message.id;
    f.tick();
    const auto second = f.send("carol", "bob", "two").message.id;
    std::int64_t start = newest(p);
    const auto marked = MUST(p.mark_all_read("bob"));
    REQUIRE(marked.size() == 2);
    CHECK(described(events_after(p, start)) ==
          std::vector<std::string>{line(EventType::read, "bob", "bob", marked[0]),
                                   line(EventType::read, "bob", "bob", marked[1])});
    CHECK(MUST(p.mark_all_read("bob")).empty());
    MUST(f.change("bob", first, Change::mark_unread));
    start = newest(p);
    // wait --read: the take is a read, written once the message is; a take whose output failed
    // marked nothing and writes nothing.
    CHECK(MUST(p.take(actor("bob"), first, deliver_ok)).has_value());
    CHECK(described(events_after(p, start)) ==
          std::vector<std::string>{line(EventType::read, "bob", "bob", first)});
    MUST(f.change("bob", second, Change::mark_unread));
    start = newest(p);
    const auto failed = p.take(actor("bob"), second, [](const mail::Message&) {
      return Result<void>(make_error(ErrorCode::store_error, "output closed"));
    });
    CHECK(code_of(failed) == "store_error");
    CHECK(events_after(p, start).empty());
  }

  SUBCASE("Events_AFailedChangeWritesNone")
  {
    Fixture f(make, k_people);
    if (!f.facets().events) {
      return;
    }
    auto& p = f.provider();
    const auto id = f.send("alice", "bob").message.id;
    const std::int64_t start = newest(p);
    CHECK(code_of(f.change("carol", id, Change::mark_read)) == "not_recipient");
    CHECK(code_of(f.change("bob", "mr-doesnotexist", Change::archive)) == "not_found");
    CHECK(code_of(p.read(actor("bob"), id, [](const mail::Message&) {
            return Result<void>(make_error(ErrorCode::store_error, "output closed"));
          })) == "store_error");
    if (f.facets().whole_sends) {
      auto keyed = f.request("alice", {"bob"}, "keyed", "one");
      keyed.idempotency_key = "k1";
      const auto stored = f.send(keyed).message.id;
      const std::int64_t after_keyed = newest(p);
      CHECK(described(events_after(p, start)) ==
            std::vector<std::string>{line(EventType::sent, "bob", "alice", stored)});
      CHECK(MUST(p.send(keyed)).replayed); // a replay stores nothing
      keyed.body = "two";
      CHECK(code_of(p.send(keyed)) == "conflict");
      CHECK(events_after(p, after_keyed).empty());
    } else {
      CHECK(events_after(p, start).empty());
    }
  }

  SUBCASE("Events_ReplyWritesSentReadAndAcked")
  {
    Fixture f(make, k_people);
    if (!f.facets().events || !f.facets().health) {
      return;
    }
    auto& p = f.provider();
    auto request = f.request("alice", {"bob"}, "please", "do it");
    request.ack = true;
    const auto asked = f.send(request).message.id;
    f.tick();
    const std::int64_t start = newest(p);
    const auto answer = f.reply("bob", asked).message.id;
    CHECK(described(events_after(p, start)) ==
          std::vector<std::string>{line(EventType::sent, "alice", "bob", answer),
                                   line(EventType::read, "bob", "bob", asked),
                                   line(EventType::acked, "bob", "bob", asked)});
  }

  SUBCASE("Events_WatchClaimsWriteClaimedReadAckedAndSetAside")
  {
    Fixture f(make, k_people);
    if (!f.facets().events || !f.facets().claims) {
      return;
    }
    auto& p = f.provider();
    const auto id = f.send("alice", "bob").message.id;
    const std::int64_t start = newest(p);
    mail::ClaimRequest request;
    request.mailbox = "bob";
    request.watcher = "w1";
    request.max_attempts = 1;
    const auto claim = MUST(reach(p).claim_next(request)).claim;
    REQUIRE(claim.has_value());
    MUST(reach(p).renew_claim(*claim, 60000)); // no event
    MUST(reach(p).finish_claim(*claim, mail::ClaimFinish{mail::ClaimOutcome::done, 0, 3}));
    CHECK(described(events_after(p, start)) ==
          std::vector<std::string>{line(EventType::claimed, "bob", "bob", id),
                                   line(EventType::read, "bob", "bob", id),
                                   line(EventType::acked, "bob", "bob", id)});
    // A failure on its last attempt sets the delivery aside.
    const auto second = f.send("carol", "bob").message.id;
    const std::int64_t before_fail = newest(p);
    const auto again = MUST(reach(p).claim_next(request)).claim;
    REQUIRE(again.has_value());
    const auto result =
        MUST(reach(p).finish_claim(*again, mail::ClaimFinish{mail::ClaimOutcome::failed, 0, 1}));
    CHECK(result.set_aside);
    CHECK(described(events_after(p, before_fail)) ==
          std::vector<std::string>{line(EventType::claimed, "bob", "bob", second),
                                   line(EventType::set_aside, "bob", "bob", second)});
  }

  SUBCASE("Events_RetentionKeepsTheNewestRowsAndNeverReusesASeq")
  {
    Fixture f(make, k_people);
    if (!f.facets().events) {
      return;
    }
    auto& p = f.provider();
    for (int i = 0; i < 5; ++i) {
      f.send("alice", "bob", "n" + std::to_string(i));
    }
    const auto all = events_after(p);
    REQUIRE(all.size() == 5);
    CHECK(MUST(reach(p).prune_events(mail::EventRetention{mail::EventRetention{}.max_age_ms, 2})) == 3);
    const auto page = MUST(reach(p).events(0, 100));
    REQUIRE(page.events.size() == 2);
    CHECK(page.events.front().seq == all[3].seq);
    CHECK(page.oldest_kept == all[2].seq + 1);
    CHECK(page.newest == all[4].seq);
    // A reader that saw all[1] missed all[2]: its after seq is below oldest_kept - 1.
    CHECK(all[1].seq < page.oldest_kept - 1);
    CHECK_FALSE(all[2].seq < page.oldest_kept - 1);
    // Nothing more to prune under the same limit.
    CHECK(MUST(reach(p).prune_events(mail::EventRetention{mail::EventRetention{}.max_age_ms, 2})) == 0);
    // Everything pruned: the next seq is still above every seq ever given.
    CHECK(MUST(reach(p).prune_events(mail::EventRetention{mail::EventRetention{}.max_age_ms, 0})) == 2);
    const auto empty = MUST(reach(p).events(0, 100));
    CHECK(empty.events.empty());
    CHECK(empty.oldest_kept == all[4].seq + 1);
    CHECK(empty.newest == all[4].seq);
    const auto next = f.send("alice", "carol").message.id;
    const auto after = events_after(p);
    CHECK(described(after) == std::vector<std::string>{line(EventType::sent, "carol", "alice", next)});
    CHECK(after.front().seq > all[4].seq);
  }

  SUBCASE("Events_OlderThanTheAgeArePrunedBySweepAndPurge")
  {
    Fixture f(make, k_people);
    if (!f.facets().events || !f.can_tick()) {
      return;
    }
    auto& p = f.provider();
    f.send("alice", "bob", "old");
    const mail::EventRetention retention;
    f.advance(retention.max_age_ms - 1000);
    const auto recent = f.send("alice", "carol", "recent").message.id;
    // A dry run changes nothing, the event log included.
    if (f.facets().health) {
      mail::SweepRequest dry;
      dry.dry_run = true;
      MUST(reach(p).sweep(dry));
      CHECK(events_after(p).size() == 2);
    }
    f.advance(2000); // the first is now older than the retention, the second not
    if (f.facets().health) {
      MUST(reach(p).sweep(mail::SweepRequest{}));
    } else {
      MUST(reach(p).prune_events(retention));
    }
    CHECK(described(events_after(p)) ==
          std::vector<std::string>{line(EventType::sent, "carol", "alice", recent)});
    if (f.facets().transfer) {
      f.advance(retention.max_age_ms);
      mail::PurgeRequest dry;
      dry.dry_run = true;
      dry.older_than = mail::k_minute_ms;
      MUST(reach(p).purge(dry));
      CHECK(events_after(p).size() == 1);
      mail::PurgeRequest purge;
      purge.older_than = mail::k_minute_ms;
      MUST(reach(p).purge(purge));
      CHECK(events_after(p).empty());
    }
  }
}

} // namespace mailroom::testing::contract
