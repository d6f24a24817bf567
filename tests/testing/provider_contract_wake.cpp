// mailroom's contract cases about waking an idle agent (contract "Reaching an idle agent (wake)",
// decisions after review "Wake"): a target is kept with the host and uid it was set from and only
// they claim its wakes; the ledger records each (recipient, message, target, attempt) once and it
// is claimed once however many processes race for it; the cooldown defers, and the next wake
// combines what it deferred; a hook that ran within idle_after defers; a wake nobody could run
// becomes unreachable after give_up_after; the delivery is re-validated (read, archived,
// canceled); a store without the facet answers unsupported.

#include <atomic>
#include <set>
#include <thread>

#include "testing/provider_contract_request_support.hpp"

namespace mailroom::testing::contract {

namespace {

const std::vector<Mailbox> k_people = {"alice", "bob", "carol"};

const mail::WakeHost k_here{"host-a", 1000};
const mail::WakeHost k_elsewhere{"host-b", 1000};

mail::WakeTarget target_from(const mail::WakeHost& host, const std::string& target = R"({"kind":"argv"})")
{
  mail::WakeTarget t;
  t.target = target;
  t.set_from = host;
  t.socket = "/tmp/tmux-1000/default";
  return t;
}

mail::WakeClaimRequest claim_for(std::vector<MessageId> messages, const mail::WakeHost& by)
{
  mail::WakeClaimRequest request;
  request.messages = std::move(messages);
  request.by = by;
  request.cooldown = 60 * mail::k_second_ms;
  request.idle_after = 10 * mail::k_second_ms;
  request.give_up_after = 10 * mail::k_minute_ms;
  return request;
}

mail::WakeClaimRequest pass_for(const mail::WakeHost& by)
{
  return claim_for({}, by);
}

// The one ledger row of `message` for `recipient`; fails the case when there is not exactly one.
mail::WakeRow row_of(mail::Wakes& w, const Mailbox& recipient, const MessageId& message)
{
  std::vector<mail::WakeRow> rows;
  for (mail::WakeRow& row : MUST(w.wake_ledger(recipient, 1000))) {
    if (row.key.message == message) {
      rows.push_back(std::move(row));
    }
  }
  REQUIRE(rows.size() == 1);
  return rows.front();
}

std::optional<mail::WakeStatus> status_of(mail::Wakes& w, const Mailbox& name)
{
  for (mail::WakeStatus& status : MUST(w.wake_statuses())) {
    if (status.mailbox == name) {
      return status;
    }
  }
  return std::nullopt;
}

} // namespace

void run_wake_cases(const ProviderMaker& make)
{
  SUBCASE("Wake_AStoreWithoutTheLedgerAnswersUnsupported")
  {
    Fixture f(make, k_people);
    const auto wakes = mail::need(f.facets().wakes, "wake");
    if (f.facets().schedules != nullptr) {
      CHECK(wakes.ok()); // every SQL store keeps the ledger
    } else {
      CHECK(code_of(wakes) == "unsupported");
    }
  }

  SUBCASE("Wake_ATargetIsKeptWithItsHostAndUidAndRemoved")
  {
    Fixture f(make, k_people);
    if (mail::Wakes* w = f.facets().wakes) {
      MUST(w->set_wake_target("bob", target_from(k_here)));
      const auto shown = status_of(*w, "bob");
      REQUIRE(shown.has_value());
      REQUIRE(shown->target.has_value());
      CHECK(shown->target->set_from.host == "host-a");
      CHECK(shown->target->set_from.uid == 1000);
      CHECK(shown->target->socket == "/tmp/tmux-1000/default");
      if (f.can_tick()) {
        CHECK(shown->target->set_at == f.now());
      }
      CHECK_FALSE(shown->outcome.has_value());
      CHECK(code_of(w->set_wake_target("nobody", target_from(k_here))) == "not_found");
      MUST(w->set_wake_target("bob", std::nullopt));
      CHECK_FALSE(status_of(*w, "bob").has_value());
      // A message to a mailbox without a target records no wake.
      const MessageId id = f.send("alice", "bob").message.id;
      CHECK(MUST(w->claim_wakes(claim_for({id}, k_here))).claimed.empty());
      CHECK(MUST(w->wake_ledger("bob", 10)).empty());
    }
  }

  SUBCASE("Wake_OnlyTheTargetsHostClaimsItOnceAndItsEndIsAnEvent")
  {
    Fixture f(make, k_people);
    if (mail::Wakes* w = f.facets().wakes) {
      MUST(w->set_wake_target("bob", target_from(k_here)));
      const mail::SendReceipt sent = f.send("alice", "bob", "deploy now");
      const MessageId id = sent.message.id;
      CHECK(MUST(w->claim_wakes(claim_for({id}, k_elsewhere))).claimed.empty());
      CHECK(row_of(*w, "bob", id).outcome == mail::WakeOutcome::pending);
      const mail::WakeClaims claims = MUST(w->claim_wakes(claim_for({id}, k_here)));
      REQUIRE(claims.claimed.size() == 1);
      const mail::ClaimedWake& wake = claims.claimed.front();
      CHECK(wake.key == mail::WakeKey{"bob", id, R"({"kind":"argv"})", 0});
      CHECK(wake.from == "alice");
      CHECK(wake.subject == "deploy now");
      CHECK(wake.count == 1);
      CHECK(wake.socket == "/tmp/tmux-1000/default");
      // Asked again, by either host, and as a pass: nothing more to run.
      CHECK(MUST(w->claim_wakes(claim_for({id}, k_here))).claimed.empty());
      CHECK(MUST(w->claim_wakes(pass_for(k_here))).claimed.empty());
      CHECK(MUST(w->wake_ledger("bob", 10)).size() == 1);
      MUST(w->finish_wake(wake.key, mail::WakeFinish{mail::WakeOutcome::failed, "exit status 3"}));
      CHECK(code_of(w->finish_wake(wake.key, mail::WakeFinish{})) == "not_found");
      const mail::WakeRow row = row_of(*w, "bob", id);
      CHECK(row.outcome == mail::WakeOutcome::failed);
      CHECK(row.reason == "exit status 3");
      const auto shown = status_of(*w, "bob");
      REQUIRE(shown.has_value());
      CHECK(shown->outcome == mail::WakeOutcome::failed);
      if (f.can_tick()) {
        CHECK(shown->last_at == f.now());
      }
      CHECK(mail::wake_failed(shown->outcome));
      if (mail::EventLog* log = f.facets().events) {
        const mail::EventsPage page = MUST(log->events(0, 100));
        REQUIRE_FALSE(page.events.empty());
        CHECK(page.events.back().type == mail::EventType::wake_done);
        CHECK(page.events.back().message_id == id);
        CHECK(page.events.back().mailbox == "bob");
      }
      if (f.can_tick()) {
        // A redelivery is a wake of its own (attempt 1).
        mail::WakeClaimRequest again = claim_for({id}, k_here);
        again.attempt = 1;
        again.cooldown = 0;
        f.tick();
        CHECK(MUST(w->claim_wakes(again)).claimed.size() == 1);
        CHECK(MUST(w->wake_ledger("bob", 10)).size() == 2);
      }
    }
  }

  SUBCASE("Wake_TheCooldownDefersAndTheNextWakeCombinesWhatItDeferred")
  {
    Fixture f(make, k_people);
    mail::Wakes* w = f.facets().wakes;
    if (w != nullptr && f.can_tick()) {
      MUST(w->set_wake_target("bob", target_from(k_here)));
      const mail::UnixMillis t0 = f.now();
      const MessageId first = f.send("alice", "bob", "one").message.id;
      const auto woke = MUST(w->claim_wakes(claim_for({first}, k_here))).claimed;
      REQUIRE(woke.size() == 1);
      MUST(w->finish_wake(woke.front().key, mail::WakeFinish{}));
      f.advance(mail::k_second_ms);
      const MessageId second = f.send("alice", "bob", "two").message.id;
      const mail::WakeClaims refused = MUST(w->claim_wakes(claim_for({second}, k_here)));
      CHECK(refused.claimed.empty());
      REQUIRE(refused.settled.size() == 1);
      CHECK(refused.settled.front().outcome == mail::WakeOutcome::deferred);
      CHECK(refused.settled.front().reason == "cooldown");
      CHECK(refused.settled.front().due_at == t0 + 60 * mail::k_second_ms + 1);
      f.advance(mail::k_second_ms);
      const MessageId third = f.send("carol", "bob", "three").message.id;
      CHECK(MUST(w->claim_wakes(claim_for({third}, k_here))).claimed.empty());
      // Before the cooldown ends a pass runs nothing; after it, one wake for both.
      f.advance(30 * mail::k_second_ms);
      CHECK(MUST(w->claim_wakes(pass_for(k_here))).claimed.empty());
      f.under_test().clock->set(t0 + 60 * mail::k_second_ms + 1);
      const auto combined = MUST(w->claim_wakes(pass_for(k_here))).claimed;
      REQUIRE(combined.size() == 1);
      CHECK(combined.front().key.message == second);
      CHECK(combined.front().count == 2);
      const mail::WakeRow covered = row_of(*w, "bob", third);
      CHECK(covered.outcome == mail::WakeOutcome::combined);
      CHECK(covered.combined_into == second);
      CHECK(row_of(*w, "bob", second).combined == 1);
      CHECK(MUST(w->claim_wakes(pass_for(k_here))).claimed.empty());
    }
  }

  SUBCASE("Wake_AHookRunWithinIdleAfterDefersTheWake")
  {
    Fixture f(make, k_people);
    mail::Wakes* w = f.facets().wakes;
    if (w != nullptr && f.can_tick()) {
      MUST(w->hook_ran("bob")); // no target yet: nothing is written, nothing fails
      MUST(w->set_wake_target("bob", target_from(k_here)));
      const mail::UnixMillis t0 = f.now();
      MUST(w->hook_ran("bob"));
      f.advance(2 * mail::k_second_ms);
      const MessageId id = f.send("alice", "bob").message.id;
      const mail::WakeClaims claims = MUST(w->claim_wakes(claim_for({id}, k_here)));
      CHECK(claims.claimed.empty());
      REQUIRE(claims.settled.size() == 1);
      CHECK(claims.settled.front().outcome == mail::WakeOutcome::deferred);
      CHECK(claims.settled.front().reason == "active");
      CHECK(claims.settled.front().due_at == t0 + 10 * mail::k_second_ms);
      f.advance(5 * mail::k_second_ms);
      CHECK(MUST(w->claim_wakes(pass_for(k_here))).claimed.empty());
      f.advance(5 * mail::k_second_ms);
      CHECK(MUST(w->claim_wakes(pass_for(k_here))).claimed.size() == 1);
    }
  }

  SUBCASE("Wake_AWakeNoQualifyingProcessRanBecomesUnreachable")
  {
    Fixture f(make, k_people);
    mail::Wakes* w = f.facets().wakes;
    if (w != nullptr && f.can_tick()) {
      MUST(w->set_wake_target("bob", target_from(k_here)));
      const MessageId id = f.send("alice", "bob").message.id;
      CHECK(MUST(w->claim_wakes(claim_for({id}, k_elsewhere))).claimed.empty());
      f.advance(9 * mail::k_minute_ms);
      CHECK(MUST(w->claim_wakes(pass_for(k_elsewhere))).settled.empty());
      f.advance(mail::k_minute_ms + 1);
      const mail::WakeClaims late = MUST(w->claim_wakes(pass_for(k_elsewhere)));
      REQUIRE(late.settled.size() == 1);
      CHECK(late.settled.front().outcome == mail::WakeOutcome::unreachable);
      CHECK(row_of(*w, "bob", id).outcome == mail::WakeOutcome::unreachable);
      CHECK(mail::wake_failed(status_of(*w, "bob")->outcome));
      // Too late for its own host too.
      CHECK(MUST(w->claim_wakes(pass_for(k_here))).claimed.empty());
    }
  }

  SUBCASE("Wake_MailReadArchivedOrCanceledBeforeTheWakeIsSkipped")
  {
    Fixture f(make, k_people);
    if (mail::Wakes* w = f.facets().wakes) {
      MUST(w->set_wake_target("bob", target_from(k_here)));
      const MessageId read = f.send("alice", "bob", "read").message.id;
      const MessageId archived = f.send("alice", "bob", "archived").message.id;
      const MessageId canceled = send_request(f, "alice", {"bob"}, "canceled");
      const MessageId retargeted = f.send("alice", "bob", "retargeted").message.id;
      // Recorded by a host that cannot run them; they wait for a pass of the right one.
      CHECK(MUST(w->claim_wakes(claim_for({read, archived, canceled, retargeted}, k_elsewhere)))
                .claimed.empty());
      f.read("bob", read);
      f.expect_outcome(f.change("bob", archived, mail::Change::archive), mail::ChangeOutcome::changed);
      MUST(cancel(f, "alice", canceled));
      MUST(w->set_wake_target("bob", target_from(k_here, R"({"kind":"tmux"})")));
      const mail::WakeClaims claims = MUST(w->claim_wakes(pass_for(k_here)));
      CHECK(claims.claimed.empty());
      CHECK(row_of(*w, "bob", read).reason == "read");
      CHECK(row_of(*w, "bob", archived).reason == "archived");
      CHECK(row_of(*w, "bob", canceled).reason == "canceled");
      CHECK(row_of(*w, "bob", retargeted).reason == "target_changed");
      for (const MessageId& id : {read, archived, canceled, retargeted}) {
        CHECK(row_of(*w, "bob", id).outcome == mail::WakeOutcome::skipped);
      }
      CHECK(claims.settled.size() == 4);
    }
  }

  SUBCASE("Wake_TargetsAndTheLedgerSurviveExportAndImport")
  {
    Fixture a(make, k_people);
    mail::Wakes* w = a.facets().wakes;
    if (w != nullptr && a.can_tick()) {
      MUST(w->set_wake_target("bob", target_from(k_here)));
      MUST(w->hook_ran("bob"));
      a.advance(20 * mail::k_second_ms);
      const MessageId first = a.send("alice", "bob", "one").message.id;
      const auto woke = MUST(w->claim_wakes(claim_for({first}, k_here))).claimed;
      REQUIRE(woke.size() == 1);
      MUST(w->finish_wake(woke.front().key, mail::WakeFinish{mail::WakeOutcome::failed, "exit status 3"}));
      a.tick();
      const MessageId second = a.send("carol", "bob", "two").message.id;
      CHECK(MUST(w->claim_wakes(claim_for({second}, k_here))).settled.size() == 1); // deferred
      const auto records = export_all(a);
      CHECK(only<mail::WakeTargetRecord>(records).size() == 1);
      CHECK(only<mail::WakeRecord>(records).size() == 2);

      Fixture b(make, {});
      MUST(import_into(b, records));
      CHECK(lines_of(export_all(b)) == lines_of(records));
      CHECK(MUST(import_into(b, records)).added == 0); // again: nothing new
      mail::Wakes* copy = b.facets().wakes;
      REQUIRE(copy != nullptr);
      CHECK(row_of(*copy, "bob", second).outcome == mail::WakeOutcome::deferred);
      CHECK(status_of(*copy, "bob")->target->set_from.host == "host-a");
    }
  }

  SUBCASE("Wake_RacingProcessesClaimEachWakeOnceAndOneWakePerCooldown")
  {
    Fixture f(make, {"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan"});
    mail::Wakes* w = f.facets().wakes;
    const ProviderUnderTest& put = f.under_test();
    if (w != nullptr && put.open_again) {
      const std::vector<Mailbox> crew = {"bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan"};
      for (const Mailbox& name : crew) {
        MUST(w->set_wake_target(name, target_from(k_here)));
      }
      constexpr int k_racers = 8;
      std::vector<std::unique_ptr<mail::Provider>> racers;
      for (int i = 0; i < k_racers; ++i) {
        racers.push_back(put.open_again());
        REQUIRE(racers.back() != nullptr);
      }
      // One message to eight recipients: eight processes race for its eight wakes.
      mail::SendRequest request = f.request("alice", {crew.begin(), crew.end()});
      const MessageId broadcast = f.send(request).message.id;
      std::atomic<int> failures{0};
      std::vector<std::vector<mail::ClaimedWake>> won(k_racers);
      {
        std::vector<std::thread> threads;
        for (int i = 0; i < k_racers; ++i) {
          threads.emplace_back([&, i] {
            auto claims = racers[i]->facets().wakes->claim_wakes(claim_for({broadcast}, k_here));
            if (claims.ok()) {
              won[i] = claims->claimed;
            } else {
              ++failures;
            }
          });
        }
        for (std::thread& t : threads) {
          t.join();
        }
      }
      CHECK(failures.load() == 0);
      std::set<Mailbox> woken;
      std::size_t total = 0;
      for (const auto& mine : won) {
        total += mine.size();
        for (const mail::ClaimedWake& wake : mine) {
          woken.insert(wake.key.recipient);
        }
      }
      CHECK(total == crew.size());
      CHECK(woken.size() == crew.size());
      // Eight senders to one recipient at once: one wake within the cooldown, every message
      // recorded once and the others deferred or combined into it.
      MUST(w->set_wake_target("alice", target_from(k_here)));
      std::vector<MessageId> ids(k_racers);
      std::vector<std::size_t> claimed(k_racers, 0);
      {
        std::vector<std::thread> threads;
        for (int i = 0; i < k_racers; ++i) {
          threads.emplace_back([&, i] {
            mail::SendRequest one = f.request(crew[i], {"alice"}, "urgent " + std::to_string(i));
            auto sent = racers[i]->send(one);
            if (!sent.ok()) {
              ++failures;
              return;
            }
            ids[i] = sent->message.id;
            auto claims = racers[i]->facets().wakes->claim_wakes(claim_for({ids[i]}, k_here));
            if (claims.ok()) {
              claimed[i] = claims->claimed.size();
            } else {
              ++failures;
            }
          });
        }
        for (std::thread& t : threads) {
          t.join();
        }
      }
      CHECK(failures.load() == 0);
      std::size_t wakes = 0;
      for (std::size_t n : claimed) {
        wakes += n;
      }
      CHECK(wakes == 1);
      // Each other message's wake waits (deferred), or was recorded before the one wake was
      // claimed and is covered by it (combined).
      std::size_t waiting = 0;
      for (const MessageId& id : ids) {
        const mail::WakeOutcome outcome = row_of(*w, "alice", id).outcome;
        waiting += outcome == mail::WakeOutcome::deferred || outcome == mail::WakeOutcome::combined ? 1 : 0;
      }
      CHECK(waiting == k_racers - 1);
      CHECK(MUST(w->wake_ledger("alice", 100)).size() == k_racers);
    }
  }
}

} // namespace mailroom::testing::contract
