// mailroom's contract cases about schedules (contract "Schedules" and its decisions): slots across
// daylight-saving changes in Europe/Berlin and America/New_York, catch-up after a three-day gap,
// --until, pause and resume, an edit that recomputes the next slot, names and ids. The clock is
// the test's (PostgreSQL's too, frozen), so every instant is exact.

#include "testing/provider_contract_schedules.hpp"

#include "mail/duration.hpp"

namespace mailroom::testing::contract {

namespace {

const std::vector<Mailbox> k_people = {"alice", "bob", "carol"};

// Fires at every instant of `firings` in turn; the slots sent, in order.
std::vector<mail::UnixMillis> sent_at(Fixture& f, mail::Schedules& s,
                                      const std::vector<mail::UnixMillis>& firings)
{
  std::vector<mail::UnixMillis> sent;
  for (const mail::UnixMillis when : firings) {
    for (const mail::UnixMillis slot : slots_with(fire_at(f, s, when), mail::FiringOutcome::sent)) {
      sent.push_back(slot);
    }
  }
  return sent;
}

// Every minute-ish step from `from` to `to`: a firer that runs every `step`.
std::vector<mail::UnixMillis> steps(mail::UnixMillis from, mail::UnixMillis to, mail::Millis step)
{
  std::vector<mail::UnixMillis> out;
  for (mail::UnixMillis t = from; t <= to; t += step) {
    out.push_back(t);
  }
  return out;
}

} // namespace

mail::Schedules* schedules_of(Fixture& f)
{
  if (f.facets().schedules == nullptr) {
    CHECK(code_of(mail::need(f.facets().schedules, "schedules")) == "unsupported");
    return nullptr;
  }
  return f.can_tick() ? f.facets().schedules : nullptr;
}

mail::ScheduleSpec every_spec(const Mailbox& from, const std::string& name,
                              const std::vector<std::string>& to, mail::Millis every)
{
  mail::ScheduleSpec spec;
  spec.from = from;
  spec.created_by = from;
  spec.name = name;
  spec.rule.kind = mail::RuleKind::every;
  spec.rule.every = every;
  spec.message.to = to;
  spec.message.subject = "report";
  spec.message.body = "send the report";
  return spec;
}

mail::ScheduleSpec cron_spec(const Mailbox& from, const std::string& name, const std::vector<std::string>& to,
                             const std::string& cron, const std::string& tz)
{
  mail::ScheduleSpec spec = every_spec(from, name, to, 0);
  spec.rule.kind = mail::RuleKind::cron;
  spec.rule.cron = cron;
  spec.rule.tz = tz;
  return spec;
}

mail::FireReport fire_at(Fixture& f, mail::Schedules& schedules, mail::UnixMillis when)
{
  f.under_test().clock->set(when);
  mail::FireReport report = MUST(schedules.fire(mail::FireRequest{}));
  INFO("stopped: ", report.stopped ? report.stopped->message : "no");
  CHECK_FALSE(report.stopped.has_value());
  return report;
}

std::vector<mail::UnixMillis> slots_with(const mail::FireReport& report, mail::FiringOutcome outcome)
{
  std::vector<mail::UnixMillis> slots;
  for (const mail::Fired& fired : report.fired) {
    for (const mail::Firing& row : fired.rows) {
      if (row.outcome == outcome) {
        slots.push_back(row.slot);
      }
    }
  }
  return slots;
}

mail::UnixMillis at(const char* rfc3339)
{
  const auto parsed = mail::parse_rfc3339(rfc3339);
  REQUIRE(parsed.has_value());
  return *parsed;
}

void run_schedule_rule_cases(const ProviderMaker& make)
{
  SUBCASE("Schedule_CronFollowsBerlinAcrossBothChanges")
  {
    Fixture f(make, k_people);
    if (mail::Schedules* s = schedules_of(f)) {
      f.under_test().clock->set(at("2026-03-27T12:00:00Z"));
      MUST(s->add_schedule(cron_spec("alice", "night", {"bob"}, "30 2 * * *", "Europe/Berlin")));
      // A firer every 10 minutes across the spring change: 02:30 does not exist on 29 March, so it
      // fires once at the first valid time after the gap (03:00 CEST = 01:00Z).
      const auto spring =
          sent_at(f, *s, steps(at("2026-03-28T00:00:00Z"), at("2026-03-30T02:00:00Z"), 10 * 60000));
      CHECK(spring == std::vector<mail::UnixMillis>{at("2026-03-28T01:30:00Z"), at("2026-03-29T01:00:00Z"),
                                                    at("2026-03-30T00:30:00Z")});
      // Across the autumn change 02:30 comes twice; it fires at the first only (CEST, 00:30Z).
      fire_at(f, *s, at("2026-10-23T12:00:00Z")); // the months between, caught up
      const auto autumn =
          sent_at(f, *s, steps(at("2026-10-24T00:00:00Z"), at("2026-10-26T03:00:00Z"), 10 * 60000));
      CHECK(autumn == std::vector<mail::UnixMillis>{at("2026-10-24T00:30:00Z"), at("2026-10-25T00:30:00Z"),
                                                    at("2026-10-26T01:30:00Z")});
    }
  }

  SUBCASE("Schedule_CronFollowsNewYorkAcrossTheSpringChange")
  {
    Fixture f(make, k_people);
    if (mail::Schedules* s = schedules_of(f)) {
      f.under_test().clock->set(at("2026-03-05T15:00:00Z"));
      const auto added = MUST(
          s->add_schedule(cron_spec("alice", "standup", {"bob"}, "0 9 * * mon-fri", "America/New_York")));
      CHECK(added.schedule.next_at == at("2026-03-06T14:00:00Z")); // Friday 09:00 EST
      // Fridays 09:00 EST is 14:00Z; Monday after the change, 09:00 EDT is 13:00Z.
      const auto sent =
          sent_at(f, *s, steps(at("2026-03-06T13:00:00Z"), at("2026-03-10T14:00:00Z"), 30 * 60000));
      CHECK(sent == std::vector<mail::UnixMillis>{at("2026-03-06T14:00:00Z"), at("2026-03-09T13:00:00Z"),
                                                  at("2026-03-10T13:00:00Z")});
    }
  }

  SUBCASE("Schedule_WallClockRuleSkipsTheGapAndRunsTheFoldTwice")
  {
    Fixture f(make, k_people);
    if (mail::Schedules* s = schedules_of(f)) {
      f.under_test().clock->set(at("2026-03-08T05:00:00Z"));
      MUST(s->add_schedule(cron_spec("alice", "pulse", {"bob"}, "*/30 1-3 * * *", "America/New_York")));
      // 01:00 and 01:30 EST, then the clocks jump to 03:00 EDT: no 02:00 or 02:30.
      const auto spring =
          sent_at(f, *s, steps(at("2026-03-08T05:50:00Z"), at("2026-03-08T08:00:00Z"), 10 * 60000));
      CHECK(spring == std::vector<mail::UnixMillis>{at("2026-03-08T06:00:00Z"), at("2026-03-08T06:30:00Z"),
                                                    at("2026-03-08T07:00:00Z"), at("2026-03-08T07:30:00Z")});
      fire_at(f, *s, at("2026-10-31T12:00:00Z")); // the months between, caught up
      // 01:00 and 01:30 come twice (EDT, then EST).
      const auto autumn =
          sent_at(f, *s, steps(at("2026-11-01T04:50:00Z"), at("2026-11-01T07:10:00Z"), 10 * 60000));
      CHECK(autumn == std::vector<mail::UnixMillis>{at("2026-11-01T05:00:00Z"), at("2026-11-01T05:30:00Z"),
                                                    at("2026-11-01T06:00:00Z"), at("2026-11-01T06:30:00Z"),
                                                    at("2026-11-01T07:00:00Z")});
    }
  }

  SUBCASE("Schedule_CatchUpAfterAThreeDayGap")
  {
    Fixture f(make, k_people);
    if (mail::Schedules* s = schedules_of(f)) {
      const mail::UnixMillis t0 = at("2026-05-01T00:00:00Z");
      f.under_test().clock->set(t0);
      MUST(s->add_schedule(every_spec("alice", "latest", {"bob"}, mail::k_hour_ms)));
      mail::ScheduleSpec skipping = every_spec("alice", "skipping", {"carol"}, mail::k_hour_ms);
      skipping.catch_up = mail::CatchUp::skip;
      MUST(s->add_schedule(skipping));
      // No firer for three days: 72 slots passed (t0+1h … t0+72h).
      const mail::FireReport report = fire_at(f, *s, t0 + 72 * mail::k_hour_ms + 5000);
      REQUIRE(report.fired.size() == 2);
      for (const mail::Fired& fired : report.fired) {
        CAPTURE(fired.name);
        REQUIRE_FALSE(fired.rows.empty());
        const mail::Firing& missed = fired.rows.front();
        CHECK(missed.outcome == mail::FiringOutcome::missed);
        CHECK(missed.slot == t0 + mail::k_hour_ms);
        if (fired.name == "latest") {
          CHECK(missed.count == 71);
          CHECK(missed.last_slot == t0 + 71 * mail::k_hour_ms);
          REQUIRE(fired.rows.size() == 2);
          CHECK(fired.rows[1].outcome == mail::FiringOutcome::sent);
          CHECK(fired.rows[1].slot == t0 + 72 * mail::k_hour_ms);
          CHECK(fired.rows[1].lateness() == 5000);
        } else {
          CHECK(missed.count == 72);
          CHECK(fired.rows.size() == 1);
        }
      }
      CHECK(f.inbox("bob").size() == 1);
      CHECK(f.inbox("carol").empty());
      // Both go on from the next slot.
      CHECK(MUST(s->schedule("alice", "skipping", 5)).next_at == t0 + 73 * mail::k_hour_ms);
    }
  }

  SUBCASE("Schedule_UntilEndsIt")
  {
    Fixture f(make, k_people);
    if (mail::Schedules* s = schedules_of(f)) {
      const mail::UnixMillis t0 = at("2026-05-01T00:00:00Z");
      f.under_test().clock->set(t0);
      mail::ScheduleSpec spec = every_spec("alice", "three", {"bob"}, mail::k_hour_ms);
      spec.rule.until = t0 + 3 * mail::k_hour_ms;
      MUST(s->add_schedule(spec));
      const auto sent = sent_at(f, *s, steps(t0, t0 + 6 * mail::k_hour_ms, 30 * 60000));
      CHECK(sent.size() == 3);
      const mail::Schedule done = MUST(s->schedule("alice", "three", 10));
      CHECK(done.ended_at.has_value());
      CHECK(done.end_reason == "done");
      CHECK_FALSE(done.next_at.has_value());
      CHECK(MUST(s->schedules(mail::ScheduleQuery{"alice", false})).empty()); // ended: not listed
      CHECK(MUST(s->schedules(mail::ScheduleQuery{"alice", true})).size() == 1);
    }
  }

  SUBCASE("Schedule_PauseSkipsSlotsAndResumeGoesOn")
  {
    Fixture f(make, k_people);
    if (mail::Schedules* s = schedules_of(f)) {
      const mail::UnixMillis t0 = at("2026-05-01T00:00:00Z");
      f.under_test().clock->set(t0);
      MUST(s->add_schedule(every_spec("alice", "hourly", {"bob"}, mail::k_hour_ms)));
      CHECK(sent_at(f, *s, {t0 + mail::k_hour_ms}).size() == 1);
      const mail::ScheduleChange pause{mail::ScheduleChange::Kind::pause, "alice", "hourly", "alice", {}};
      CHECK(MUST(s->change_schedule(pause)).paused_at.has_value());
      // Three slots pass while paused: nothing fires, nothing is recorded.
      CHECK(fire_at(f, *s, t0 + 4 * mail::k_hour_ms + 60000).fired.empty());
      mail::ScheduleChange resume = pause;
      resume.kind = mail::ScheduleChange::Kind::resume;
      const mail::Schedule resumed = MUST(s->change_schedule(resume));
      CHECK_FALSE(resumed.paused_at.has_value());
      CHECK(resumed.next_at == t0 + 5 * mail::k_hour_ms);
      CHECK(sent_at(f, *s, {t0 + 5 * mail::k_hour_ms}).size() == 1);
      CHECK(MUST(s->schedule("alice", "hourly", 10)).firings.size() == 2);
    }
  }

  SUBCASE("Schedule_EditRecomputesTheNextSlot")
  {
    Fixture f(make, k_people);
    if (mail::Schedules* s = schedules_of(f)) {
      const mail::UnixMillis t0 = at("2026-05-01T08:00:00Z");
      f.under_test().clock->set(t0);
      MUST(s->add_schedule(every_spec("alice", "report", {"bob"}, mail::k_hour_ms)));
      CHECK(sent_at(f, *s, {t0 + mail::k_hour_ms}) == std::vector<mail::UnixMillis>{t0 + mail::k_hour_ms});
      mail::ScheduleChange edit{mail::ScheduleChange::Kind::edit, "alice", "report", "alice", {}};
      edit.edited = cron_spec("alice", "report", {"carol"}, "0 12 * * *", "Europe/Berlin");
      const mail::Schedule edited = MUST(s->change_schedule(edit));
      CHECK(edited.next_at == at("2026-05-01T10:00:00Z")); // 12:00 CEST
      CHECK(edited.spec.message.to == std::vector<std::string>{"carol"});
      // Back to a schedule whose next slot would be the one already fired: never again.
      edit.edited = cron_spec("alice", "report", {"bob"}, "0 11 * * *", "Europe/Berlin");
      f.under_test().clock->set(t0 + mail::k_hour_ms - 60000);
      const mail::Schedule back = MUST(s->change_schedule(edit));
      CHECK(back.next_at == at("2026-05-02T09:00:00Z"));
    }
  }

  SUBCASE("Schedule_NamesAreUniquePerOwnerAndNeverReuseAnId")
  {
    Fixture f(make, k_people);
    if (mail::Schedules* s = schedules_of(f)) {
      f.under_test().clock->set(at("2026-05-01T00:00:00Z"));
      const auto first = MUST(s->add_schedule(every_spec("alice", "daily", {"bob"}, mail::k_day_ms)));
      CHECK(code_of(s->add_schedule(every_spec("alice", "daily", {"carol"}, mail::k_day_ms))) == "conflict");
      MUST(s->add_schedule(every_spec("bob", "daily", {"alice"}, mail::k_day_ms))); // another owner's
      const auto missing = s->schedule("alice", "dialy", 1);
      REQUIRE(code_of(missing) == "not_found");
      CHECK(contains(missing.error().suggestions, "daily"));
      MUST(s->change_schedule({mail::ScheduleChange::Kind::cancel, "alice", "daily", "alice", {}}));
      const auto again = MUST(s->add_schedule(every_spec("alice", "daily", {"carol"}, mail::k_day_ms)));
      CHECK(again.schedule.id != first.schedule.id);
      CHECK(MUST(s->schedules(mail::ScheduleQuery{std::nullopt, false})).size() == 2);
      CHECK(MUST(s->schedules(mail::ScheduleQuery{std::nullopt, true})).size() == 3);
      CHECK(code_of(s->change_schedule({mail::ScheduleChange::Kind::pause, "alice", "nope", "alice", {}})) ==
            "not_found");
    }
  }
}

} // namespace mailroom::testing::contract
