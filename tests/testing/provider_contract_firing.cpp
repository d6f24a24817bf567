// mailroom's contract cases about firing (contract "Schedules", decisions "Keys", "TTL and
// overlap", "Failures at firing", "JSON"): each slot fires once however many runs race for it, the
// message carries its schedule and slot and expires a period after the slot, --overlap skip holds a
// slot while the last request is open and goes on after the reply, a decline or a cancel (the
// delivery's request state), run-now and its minute, retired
// recipients, a one-shot fired late, the firers' heartbeat, and export -> import -> export of
// schedules and firings.

#include "testing/provider_contract_schedules.hpp"

#include "mail/duration.hpp"
#include "testing/provider_contract_request_support.hpp"

namespace mailroom::testing::contract {

namespace {

const std::vector<Mailbox> k_people = {"alice", "bob", "carol"};

std::vector<mail::MessageId> messages_of(const mail::FireReport& report)
{
  std::vector<mail::MessageId> ids;
  for (const mail::Fired& fired : report.fired) {
    for (const mail::Firing& row : fired.rows) {
      if (row.message_id) {
        ids.push_back(*row.message_id);
      }
    }
  }
  return ids;
}

} // namespace

void run_schedule_firing_cases(const ProviderMaker& make)
{
  SUBCASE("Schedule_EachSlotFiresOnceAndItsMessageSaysWhich")
  {
    Fixture f(make, k_people);
    if (mail::Schedules* s = schedules_of(f)) {
      const mail::UnixMillis t0 = at("2026-05-01T00:00:00Z");
      f.under_test().clock->set(t0);
      MUST(s->add_schedule(every_spec("alice", "hourly", {"bob"}, mail::k_hour_ms)));
      const mail::FireReport first = fire_at(f, *s, t0 + mail::k_hour_ms);
      CHECK(fire_at(f, *s, t0 + mail::k_hour_ms).fired.empty()); // the same slot, again: nothing
      const auto ids = messages_of(first);
      REQUIRE(ids.size() == 1);
      const mail::Message m = f.get("bob", ids.front());
      CHECK(m.schedule == "hourly");
      CHECK(m.slot == t0 + mail::k_hour_ms);
      CHECK(m.type == "cron_task");
      CHECK(m.expires_at == t0 + 2 * mail::k_hour_ms); // the TTL is the period, from the slot
      CHECK(f.inbox("bob").size() == 1);
      const mail::Schedule shown = MUST(s->schedule("alice", "hourly", 5));
      REQUIRE(shown.last.has_value());
      CHECK(shown.last->message_id == ids.front());
      CHECK(shown.next_at == t0 + 2 * mail::k_hour_ms);
      REQUIRE(shown.firings.size() == 1);
      CHECK(shown.firings.front().request_states.at("bob") == "submitted");
      // A dry run reports the next slot and changes nothing.
      f.under_test().clock->set(t0 + 2 * mail::k_hour_ms);
      mail::FireRequest dry;
      dry.dry_run = true;
      CHECK(MUST(s->fire(dry)).fired.size() == 1);
      CHECK(fire_at(f, *s, t0 + 2 * mail::k_hour_ms).fired.size() == 1);
    }
  }

  SUBCASE("Schedule_OverlapSkipsWhileTheRequestIsOpenAndGoesOnAfterTheReply")
  {
    Fixture f(make, k_people);
    if (mail::Schedules* s = schedules_of(f)) {
      const mail::UnixMillis t0 = at("2026-05-01T00:00:00Z");
      f.under_test().clock->set(t0);
      mail::ScheduleSpec spec = every_spec("alice", "nightly", {"bob"}, mail::k_hour_ms);
      spec.message.ttl = mail::k_day_ms; // open longer than a period
      MUST(s->add_schedule(spec));
      mail::ScheduleSpec always = every_spec("alice", "always", {"carol"}, mail::k_hour_ms);
      always.message.ttl = mail::k_day_ms;
      always.overlap = mail::Overlap::send;
      MUST(s->add_schedule(always));
      const auto first = messages_of(fire_at(f, *s, t0 + mail::k_hour_ms));
      REQUIRE(first.size() == 2);
      const mail::FireReport second = fire_at(f, *s, t0 + 2 * mail::k_hour_ms);
      CHECK(slots_with(second, mail::FiringOutcome::skipped_open).size() == 1); // bob has not replied
      CHECK(slots_with(second, mail::FiringOutcome::sent).size() == 1);         // carol's: overlap send
      f.read("bob", f.inbox("bob").front().id);
      CHECK(slots_with(fire_at(f, *s, t0 + 3 * mail::k_hour_ms), mail::FiringOutcome::skipped_open).size() ==
            1);
      const MessageId request = f.inbox("bob", true).front().id;
      f.under_test().clock->set(t0 + 3 * mail::k_hour_ms + 60000);
      f.reply("bob", request, "done");
      const mail::FireReport after = fire_at(f, *s, t0 + 4 * mail::k_hour_ms);
      CHECK(slots_with(after, mail::FiringOutcome::skipped_open).empty());
      CHECK(slots_with(after, mail::FiringOutcome::sent).size() == 2);
      const mail::Schedule shown = MUST(s->schedule("alice", "nightly", 10));
      REQUIRE(shown.firings.size() == 4);
      CHECK(shown.firings.back().request_states.at("bob") == "completed"); // the first, answered
      CHECK(shown.firings.front().request_states.at("bob") == "submitted");
    }
  }

  SUBCASE("Schedule_OverlapGoesOnOnceTheRequestIsDeclinedOrCanceled")
  {
    // Open is the delivery's request state (mail/request.hpp): a declined or canceled request is
    // closed, though nobody replied and it has not expired.
    Fixture f(make, k_people);
    if (mail::Schedules* s = schedules_of(f)) {
      const mail::UnixMillis t0 = at("2026-05-01T00:00:00Z");
      f.under_test().clock->set(t0);
      const std::pair<std::string, Mailbox> asks[] = {{"asks-bob", "bob"}, {"asks-carol", "carol"}};
      for (const auto& [name, to] : asks) {
        mail::ScheduleSpec spec = every_spec("alice", name, {to}, mail::k_hour_ms);
        spec.message.ttl = mail::k_day_ms; // open longer than a period
        MUST(s->add_schedule(spec));
      }
      REQUIRE(messages_of(fire_at(f, *s, t0 + mail::k_hour_ms)).size() == 2);
      const MessageId to_bob = f.inbox("bob").front().id;
      const MessageId to_carol = f.inbox("carol").front().id;
      MUST(respond(f, "bob", to_bob, mail::RequestVerb::decline, "not mine"));
      MUST(cancel(f, "alice", to_carol));
      const mail::FireReport next = fire_at(f, *s, t0 + 2 * mail::k_hour_ms);
      CHECK(slots_with(next, mail::FiringOutcome::skipped_open).empty());
      CHECK(slots_with(next, mail::FiringOutcome::sent).size() == 2);
      CHECK(MUST(s->schedule("alice", "asks-bob", 10)).firings.back().request_states.at("bob") == "rejected");
      CHECK(MUST(s->schedule("alice", "asks-carol", 10)).firings.back().request_states.at("carol") ==
            "canceled");
    }
  }

  SUBCASE("Schedule_RunNowFiresOnceAMinute")
  {
    Fixture f(make, k_people);
    if (mail::Schedules* s = schedules_of(f)) {
      const mail::UnixMillis t0 = at("2026-05-01T00:00:00Z");
      f.under_test().clock->set(t0);
      MUST(s->add_schedule(every_spec("alice", "daily", {"bob"}, mail::k_day_ms)));
      mail::FireRequest now;
      now.from = "alice";
      now.run_now = "daily";
      const mail::FireReport once = MUST(s->fire(now));
      REQUIRE(once.fired.size() == 1);
      CHECK(once.fired.front().rows.front().kind == mail::FiringKind::run_now);
      CHECK(once.fired.front().rows.front().slot == t0);
      f.advance(30000);
      const auto again = s->fire(now);
      REQUIRE(code_of(again) == "conflict");
      CHECK(again.error().message.find(*once.fired.front().rows.front().message_id) != std::string::npos);
      f.advance(31000);
      CHECK(MUST(s->fire(now)).fired.size() == 1);
      CHECK(MUST(s->schedule("alice", "daily", 1)).next_at == t0 + mail::k_day_ms); // slots unchanged
      now.run_now = "nope";
      CHECK(code_of(s->fire(now)) == "not_found");
    }
  }

  SUBCASE("Schedule_RetiredRecipientsAreDroppedThenItFailsAndEscalatesOnce")
  {
    Fixture f(make, k_people);
    mail::Schedules* s = schedules_of(f);
    if (s != nullptr && f.facets().registry != nullptr) {
      const mail::UnixMillis t0 = at("2026-05-01T00:00:00Z");
      f.under_test().clock->set(t0);
      MUST(s->add_schedule(every_spec("alice", "team", {"bob", "carol"}, mail::k_hour_ms)));
      MUST(reach(f.provider()).remove_agent("carol"));
      const mail::FireReport partial = fire_at(f, *s, t0 + mail::k_hour_ms);
      REQUIRE(slots_with(partial, mail::FiringOutcome::partial).size() == 1);
      CHECK(partial.fired.front().rows.front().detail.find("carol") != std::string::npos);
      MUST(reach(f.provider()).remove_agent("bob"));
      for (int slot = 2; slot <= 3; ++slot) {
        const mail::FireReport failed = fire_at(f, *s, t0 + slot * mail::k_hour_ms);
        REQUIRE(slots_with(failed, mail::FiringOutcome::failed).size() == 1);
        CHECK(failed.fired.front().rows.front().error_code == "unknown_recipient");
      }
      // One escalation for the two failures, to the owner.
      const auto told = f.inbox("alice");
      REQUIRE(told.size() == 1);
      CHECK(told.front().type == "escalation");
      CHECK(told.front().from == "mailroom");
    }
  }

  SUBCASE("Schedule_OneShotFiresHoweverLateAndEnds")
  {
    Fixture f(make, k_people);
    if (mail::Schedules* s = schedules_of(f)) {
      const mail::UnixMillis t0 = at("2026-05-01T00:00:00Z");
      f.under_test().clock->set(t0);
      mail::ScheduleSpec once = every_spec("alice", "once-1a2b", {"bob"}, 0);
      once.rule.kind = mail::RuleKind::at;
      once.rule.at = t0 + mail::k_hour_ms;
      once.message.type = "message";
      once.idempotency_key = "k1";
      const auto added = MUST(s->add_schedule(once));
      CHECK(added.schedule.next_at == t0 + mail::k_hour_ms);
      CHECK(MUST(s->add_schedule(once)).replayed); // the same key: the same one-shot
      const mail::FireReport late = fire_at(f, *s, t0 + 3 * mail::k_day_ms);
      const auto sent = slots_with(late, mail::FiringOutcome::sent);
      REQUIRE(sent.size() == 1);
      CHECK(late.fired.front().rows.front().lateness() == 3 * mail::k_day_ms - mail::k_hour_ms);
      const mail::Schedule done = MUST(s->schedule("alice", "once-1a2b", 1));
      CHECK(done.end_reason == "done");
      CHECK(MUST(s->schedules(mail::ScheduleQuery{"alice", false})).empty());
    }
  }

  SUBCASE("Schedule_FirersRecordAHeartbeat")
  {
    Fixture f(make, k_people);
    if (mail::Schedules* s = schedules_of(f)) {
      f.under_test().clock->set(at("2026-05-01T00:00:00Z"));
      CHECK_FALSE(MUST(s->firer_status()).last_beat.has_value());
      MUST(s->record_firer(mail::FirerKind::run_due));
      const mail::FirerStatus status = MUST(s->firer_status());
      CHECK(status.last_beat == at("2026-05-01T00:00:00Z"));
      CHECK_FALSE(status.next_due.has_value());
      MUST(s->add_schedule(every_spec("alice", "hourly", {"bob"}, mail::k_hour_ms)));
      CHECK(MUST(s->firer_status()).next_due == at("2026-05-01T01:00:00Z"));
    }
  }

  SUBCASE("Schedule_ExportImportExportIsLossless")
  {
    Fixture a(make, k_people);
    mail::Schedules* s = schedules_of(a);
    if (s == nullptr || a.facets().transfer == nullptr) {
      return;
    }
    const mail::UnixMillis t0 = at("2026-05-01T00:00:00Z");
    a.under_test().clock->set(t0);
    MUST(s->add_schedule(every_spec("alice", "hourly", {"bob"}, mail::k_hour_ms)));
    mail::ScheduleSpec nightly =
        cron_spec("alice", "nightly", {"bob", "carol"}, "0 9 * * mon-fri", "Europe/Berlin");
    nightly.message.cc = {"carol"};
    nightly.overlap = mail::Overlap::send;
    MUST(s->add_schedule(nightly));
    fire_at(a, *s, t0 + mail::k_hour_ms);
    fire_at(a, *s, t0 + 4 * mail::k_hour_ms); // hourly: two missed, then the latest sent
    mail::ScheduleChange pause{mail::ScheduleChange::Kind::pause, "alice", "nightly", "alice", std::nullopt};
    MUST(s->change_schedule(pause));
    const auto records = export_all(a);
    CHECK(only<mail::ScheduleRecord>(records).size() == 2);
    CHECK(only<mail::FiringRecord>(records).size() == 3); // sent, missed, sent

    Fixture b(make, {});
    MUST(import_into(b, records));
    CHECK(lines_of(export_all(b)) == lines_of(records));
    CHECK(MUST(import_into(b, records)).added == 0); // again: nothing new
    // The copy fires on from where the original stopped, and knows its messages' schedule.
    mail::Schedules* copy = schedules_of(b);
    REQUIRE(copy != nullptr);
    const mail::Schedule shown = MUST(copy->schedule("alice", "hourly", 5));
    CHECK(shown.next_at == t0 + 5 * mail::k_hour_ms);
    CHECK(MUST(copy->schedule("alice", "nightly", 5)).paused_at.has_value());
    const mail::Message fired = b.get("bob", *shown.last->message_id);
    CHECK(fired.schedule == "hourly");
    CHECK(fired.slot == t0 + 4 * mail::k_hour_ms);
    CHECK(slots_with(fire_at(b, *copy, t0 + 5 * mail::k_hour_ms), mail::FiringOutcome::sent).size() == 1);
  }
}

} // namespace mailroom::testing::contract
