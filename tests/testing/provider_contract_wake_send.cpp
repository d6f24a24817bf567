// mailroom's contract cases about the wakes a send records (contract "Reaching an idle agent
// (wake)"; mail/wake.hpp WakeWhen): a send, reply or firing that wakes records a pending ledger
// row per recipient with a target in its own transaction; Wakes::wake_ready says whether this
// host could run it now (its target's host and uid, outside the cooldown); a pass defers a wake
// recorded within the cooldown and the next wake of the pair combines it; a pass deletes rows that
// ended before keep_for, but each recipient's newest.

#include "testing/provider_contract_schedules.hpp"
#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

namespace {

const std::vector<Mailbox> k_people = {"alice", "bob", "carol"};

const mail::WakeHost k_here{"host-a", 1000};
const mail::WakeHost k_elsewhere{"host-b", 1000};
constexpr mail::Millis k_cooldown = 60 * mail::k_second_ms;

mail::WakeTarget target_from(const mail::WakeHost& host)
{
  mail::WakeTarget t;
  t.target = R"({"kind":"argv"})";
  t.set_from = host;
  return t;
}

// Urgent mail from `from` to `to`, sent under [wake] on = ["urgent"].
mail::SendRequest urgent(const Fixture& f, const Mailbox& from, std::vector<std::string> to,
                         const std::string& subject = "outage")
{
  mail::SendRequest request = f.request(from, std::move(to), subject);
  request.priority = mail::Priority::urgent;
  request.wake.urgent = true;
  return request;
}

std::vector<mail::WakeRow> rows_of(mail::Wakes& w, const Mailbox& recipient, const MessageId& message)
{
  std::vector<mail::WakeRow> rows;
  for (mail::WakeRow& row : MUST(w.wake_ledger(recipient, 1000))) {
    if (row.key.message == message) {
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

mail::WakeClaimRequest claim_for(std::vector<MessageId> messages)
{
  mail::WakeClaimRequest request;
  request.messages = std::move(messages);
  request.by = k_here;
  request.cooldown = k_cooldown;
  request.give_up_after = 10 * mail::k_minute_ms;
  return request;
}

} // namespace

void run_wake_send_cases(const ProviderMaker& make)
{
  SUBCASE("Wake_ASendRecordsItsWakesWithTheMessage")
  {
    Fixture f(make, k_people);
    if (mail::Wakes* w = f.facets().wakes) {
      MUST(w->set_wake_target("bob", target_from(k_here)));
      MUST(w->set_wake_target("carol", target_from(k_elsewhere)));
      const MessageId id = f.send(urgent(f, "alice", {"bob", "carol"})).message.id;
      // Recorded by the send itself: pending, nobody has claimed anything yet.
      for (const Mailbox name : {"bob", "carol"}) {
        const std::vector<mail::WakeRow> rows = rows_of(*w, name, id);
        REQUIRE(rows.size() == 1);
        CHECK(rows.front().outcome == mail::WakeOutcome::pending);
        CHECK(rows.front().key.attempt == 0);
        CHECK_FALSE(rows.front().claimed_at.has_value());
      }
      // Mail that [wake] on does not name records nothing; nor does a recipient without a target.
      mail::SendRequest plain = f.request("alice", {"bob"});
      plain.wake.urgent = true;
      CHECK(rows_of(*w, "bob", f.send(plain).message.id).empty());
      CHECK(rows_of(*w, "alice", f.send(urgent(f, "bob", {"alice"})).message.id).empty());
      // A type that expects a reply, under "request"; and always, under --notify.
      mail::SendRequest asked = f.typed_request("alice", "bob", "task_request");
      asked.wake.request = true;
      CHECK(rows_of(*w, "bob", f.send(asked).message.id).size() == 1);
      mail::SendRequest notified = f.request("alice", {"bob"});
      notified.wake.always = true;
      CHECK(rows_of(*w, "bob", f.send(notified).message.id).size() == 1);
      // A reply wakes as a send does.
      MUST(w->set_wake_target("alice", target_from(k_here)));
      mail::ReplyRequest answer = Fixture::reply_request("carol", id, "on it");
      answer.priority = mail::Priority::urgent;
      answer.wake.urgent = true;
      const MessageId reply = MUST(f.provider().reply(answer)).message.id;
      CHECK(rows_of(*w, "alice", reply).size() == 1);
      // The claim of a recorded wake records nothing twice.
      CHECK(MUST(w->claim_wakes(claim_for({id}))).claimed.size() == 1);
      CHECK(rows_of(*w, "bob", id).size() == 1);
    }
  }

  SUBCASE("Wake_ReadyOnlyForTheTargetsHostAndOutsideTheCooldown")
  {
    Fixture f(make, k_people);
    mail::Wakes* w = f.facets().wakes;
    if (w != nullptr && f.can_tick()) {
      MUST(w->set_wake_target("bob", target_from(k_here)));
      const mail::SendReceipt first = f.send(urgent(f, "alice", {"bob"}));
      const MessageId id = first.message.id;
      CHECK(MUST(w->wake_ready(id, first.recipients, k_here, k_cooldown)));
      CHECK_FALSE(MUST(w->wake_ready(id, first.recipients, k_elsewhere, k_cooldown)));
      CHECK_FALSE(MUST(w->wake_ready(id, {"carol"}, k_here, k_cooldown)));
      const MessageId quiet = f.send("alice", "bob").message.id;
      CHECK_FALSE(MUST(w->wake_ready(quiet, {"bob"}, k_here, k_cooldown)));
      const auto woke = MUST(w->claim_wakes(claim_for({id}))).claimed;
      REQUIRE(woke.size() == 1);
      CHECK_FALSE(MUST(w->wake_ready(id, {"bob"}, k_here, k_cooldown))); // claimed
      MUST(w->finish_wake(woke.front().key, mail::WakeFinish{}));
      f.advance(mail::k_second_ms);
      const MessageId second = f.send(urgent(f, "carol", {"bob"})).message.id;
      CHECK_FALSE(MUST(w->wake_ready(second, {"bob"}, k_here, k_cooldown))); // within the cooldown
      CHECK(MUST(w->wake_ready(second, {"bob"}, k_here, 0)));
      f.advance(k_cooldown);
      CHECK(MUST(w->wake_ready(second, {"bob"}, k_here, k_cooldown)));
    }
  }

  SUBCASE("Wake_APassDefersAWakeRecordedInTheCooldownAndTheNextWakeCombinesIt")
  {
    Fixture f(make, k_people);
    mail::Wakes* w = f.facets().wakes;
    if (w != nullptr && f.can_tick()) {
      MUST(w->set_wake_target("bob", target_from(k_here)));
      const MessageId first = f.send(urgent(f, "alice", {"bob"}, "one")).message.id;
      const auto woke = MUST(w->claim_wakes(claim_for({first}))).claimed;
      REQUIRE(woke.size() == 1);
      MUST(w->finish_wake(woke.front().key, mail::WakeFinish{}));
      // Sent within the cooldown: recorded, and left for a pass (nobody starts a run for it), which
      // defers it to the cooldown's end.
      f.advance(mail::k_second_ms);
      const MessageId second = f.send(urgent(f, "alice", {"bob"}, "two")).message.id;
      const mail::WakeClaims deferred = MUST(w->claim_wakes(claim_for({})));
      CHECK(deferred.claimed.empty());
      REQUIRE(deferred.settled.size() == 1);
      CHECK(deferred.settled.front().outcome == mail::WakeOutcome::deferred);
      f.advance(k_cooldown);
      const MessageId third = f.send(urgent(f, "carol", {"bob"}, "three")).message.id;
      const auto next = MUST(w->claim_wakes(claim_for({third}))).claimed;
      REQUIRE(next.size() == 1);
      CHECK(next.front().count == 2);
      const std::vector<mail::WakeRow> covered = rows_of(*w, "bob", second);
      REQUIRE(covered.size() == 1);
      CHECK(covered.front().outcome == mail::WakeOutcome::combined);
      CHECK(covered.front().combined_into == third);
      // Nothing is left for a pass.
      mail::WakeClaimRequest pass = claim_for({});
      CHECK(MUST(w->claim_wakes(pass)).claimed.empty());
    }
  }

  SUBCASE("Wake_APassDeletesRowsThatEndedLongAgoButEachMailboxsNewest")
  {
    Fixture f(make, k_people);
    mail::Wakes* w = f.facets().wakes;
    if (w != nullptr && f.can_tick()) {
      MUST(w->set_wake_target("bob", target_from(k_here)));
      std::vector<MessageId> ids;
      for (int i = 0; i < 3; ++i) {
        ids.push_back(f.send(urgent(f, "alice", {"bob"})).message.id);
        mail::WakeClaimRequest now = claim_for({ids.back()});
        now.cooldown = 0;
        const auto woke = MUST(w->claim_wakes(now)).claimed;
        REQUIRE(woke.size() == 1);
        MUST(w->finish_wake(woke.front().key, mail::WakeFinish{}));
        f.advance(mail::k_second_ms);
      }
      const mail::Millis keep = 7 * 24 * 3600 * mail::k_second_ms;
      f.advance(keep);
      const MessageId waiting = f.send(urgent(f, "alice", {"bob"})).message.id; // pending: kept
      mail::WakeClaimRequest pass = claim_for({});
      pass.by = k_elsewhere; // runs nothing: only the pruning is seen
      pass.keep_for = keep;
      (void)MUST(w->claim_wakes(pass));
      CHECK(rows_of(*w, "bob", ids[0]).empty());
      CHECK(rows_of(*w, "bob", ids[1]).empty());
      CHECK(rows_of(*w, "bob", ids[2]).size() == 1); // the newest that ended
      CHECK(rows_of(*w, "bob", waiting).size() == 1);
    }
  }

  SUBCASE("Wake_AFiringRecordsItsWakesAsASendDoes")
  {
    Fixture f(make, k_people);
    mail::Schedules* schedules = schedules_of(f);
    mail::Wakes* w = f.facets().wakes;
    if (schedules != nullptr && w != nullptr) {
      MUST(w->set_wake_target("bob", target_from(k_here)));
      const mail::UnixMillis t0 = f.now();
      mail::ScheduleSpec loud = every_spec("alice", "loud", {"bob"}, mail::k_minute_ms);
      loud.message.notify = true;
      MUST(schedules->add_schedule(loud));
      MUST(schedules->add_schedule(every_spec("alice", "quiet", {"bob"}, mail::k_minute_ms)));
      f.under_test().clock->set(t0 + mail::k_minute_ms);
      mail::FireRequest run;
      run.wake.always = true; // "notify" in [wake] on: only a schedule made with --notify
      const mail::FireReport report = MUST(schedules->fire(run));
      REQUIRE(report.fired.size() == 2);
      for (const mail::Fired& fired : report.fired) {
        for (const mail::Firing& firing : fired.rows) {
          REQUIRE(firing.message_id.has_value());
          CHECK(rows_of(*w, "bob", *firing.message_id).size() == (fired.name == "loud" ? 1U : 0U));
        }
      }
    }
  }
}

} // namespace mailroom::testing::contract
