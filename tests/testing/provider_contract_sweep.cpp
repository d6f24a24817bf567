// mailroom's contract cases about the redelivery sweep (contract "The redelivery sweep"), on the
// test's clock: the backoff schedule as the store reads it back, the attempt cap, one escalation
// per (sender, dark peer) per pass and never a second, and passes that change nothing (off, or
// --dry-run).

#include <string>

#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

using mail::k_minute_ms;

namespace {

const std::vector<Mailbox> k_people = {"alice", "bob", "carol", "dave", "ops"};

mail::MailPolicy sweeping(int max_attempts, bool enabled = true)
{
  mail::MailPolicy policy;
  policy.redelivery.enabled = enabled;
  policy.redelivery.first_after = 10 * k_minute_ms;
  policy.redelivery.backoff = 2.0;
  policy.redelivery.max_attempts = max_attempts;
  return policy;
}

mail::SweepReport sweep(Fixture& f, bool dry_run = false, std::optional<Mailbox> from = std::nullopt,
                        std::size_t batch = 500)
{
  mail::SweepRequest request;
  request.dry_run = dry_run;
  request.from = std::move(from);
  request.batch = batch;
  auto report = MUST(reach(f.provider()).sweep(request));
  INFO("stopped: ", report.stopped ? report.stopped->message : "no");
  CHECK_FALSE(report.stopped.has_value());
  return report;
}

MessageId send_task(Fixture& f, const Mailbox& from, const Mailbox& to, const std::string& subject = "task")
{
  auto request = f.request(from, {to}, subject, "do it");
  request.type = "task_request";
  return f.send(request).message.id;
}

const mail::DeliveryStatus& delivery_to(const mail::StatusResult& status, const Mailbox& recipient)
{
  for (const auto& row : status.deliveries) {
    if (row.recipient == recipient) {
      return row;
    }
  }
  FAIL("no delivery to ", recipient);
  return status.deliveries.front();
}

// True when the health cases can run: a store with delivery health on a clock the test moves.
bool can_sweep(Fixture& f)
{
  if (!f.facets().health) {
    CHECK(code_of(reach(f.provider()).sweep(mail::SweepRequest{})) == "unsupported");
    return false;
  }
  return f.can_tick();
}

} // namespace

void run_sweep_cases(const ProviderMaker& make)
{
  SUBCASE("Sweep_FollowsTheBackoffScheduleThenEscalatesOnce")
  {
    Fixture f(make, k_people, sweeping(3));
    if (can_sweep(f)) {
      const mail::UnixMillis t0 = f.now();
      const MessageId id = send_task(f, "alice", "bob");
      f.read("bob", id);
      MUST(f.change("bob", id, Change::archive));
      // Due first_after × backoff^k after redelivery k: 10m, then +20m, +40m; then it gives up.
      const mail::UnixMillis due[] = {t0 + 10 * k_minute_ms, t0 + 30 * k_minute_ms, t0 + 70 * k_minute_ms};
      for (int k = 0; k < 3; ++k) {
        INFO("redelivery ", k + 1);
        f.advance(due[k] - 1 - f.now());
        CHECK(sweep(f).redelivered.empty());
        f.advance(1);
        const auto report = sweep(f);
        REQUIRE(report.redelivered.size() == 1);
        CHECK(report.redelivered[0].id == id);
        CHECK(report.redelivered[0].recipient == "bob");
        CHECK(report.redelivered[0].sender == "alice");
        CHECK(report.redelivered[0].attempt == k + 1);
        CHECK(report.redelivered[0].of == 3);
        CHECK(report.escalated.empty());
        // Unread and unarchived again, labelled with the attempt.
        const auto seen = f.get("bob", id);
        CHECK_FALSE(state_of(seen).read);
        CHECK_FALSE(state_of(seen).archived);
        CHECK(state_of(seen).attempts == k + 1);
        CHECK(state_of(seen).last_attempt_at == std::optional<mail::UnixMillis>(due[k]));
        CHECK(state_of(seen).ack_state == AckState::awaiting_ack);
        CHECK(f.inbox_ids("bob") == std::vector<MessageId>{id});
        if (f.facets().views) {
          const auto status = MUST(reach(f.provider()).status(id));
          const auto& row = delivery_to(status, "bob");
          CHECK(row.attempts == k + 1);
          CHECK(row.last_attempt_at == std::optional<mail::UnixMillis>(due[k]));
        }
        f.read("bob", id);
        CHECK(sweep(f).redelivered.empty()); // not again in the same minute
      }
      // After the third redelivery the next look is 80m later: it has used its attempts.
      f.advance(t0 + 150 * k_minute_ms - 1 - f.now());
      CHECK(sweep(f).escalated.empty());
      f.advance(1);
      const auto report = sweep(f);
      CHECK(report.redelivered.empty());
      REQUIRE(report.escalated.size() == 1);
      const mail::Escalation& e = report.escalated[0];
      CHECK(e.sender == "alice");
      CHECK(e.peer == "bob");
      CHECK(e.escalate_to == "alice");
      CHECK(e.ids == std::vector<MessageId>{id});
      REQUIRE(e.escalation_id.has_value());
      CHECK(state_of(f.get("bob", id)).ack_state == AckState::escalated);
      CHECK(state_of(f.get("bob", id)).read); // giving up re-surfaces nothing
      const auto escalation = f.get("alice", *e.escalation_id);
      CHECK(escalation.from == "mailroom");
      CHECK(escalation.type == "escalation");
      CHECK(escalation.to == std::vector<Mailbox>{"alice"});
      CHECK(state_of(escalation).ack_state == AckState::none); // never tracked
      CHECK(escalation.body.find(id) != std::string::npos);
      CHECK(f.inbox_ids("alice") == std::vector<MessageId>{*e.escalation_id});
      // Escalated deliveries left the due set: no second escalation, ever.
      f.advance(1000 * k_minute_ms);
      const auto later = sweep(f);
      CHECK(later.redelivered.empty());
      CHECK(later.escalated.empty());
      CHECK(f.count("alice").total == 1);
      // A late ack still counts.
      MUST(f.change("bob", id, Change::ack));
      CHECK(state_of(f.get("bob", id)).ack_state == AckState::acked);
    }
  }

  SUBCASE("Sweep_OneEscalationPerSenderAndDarkPeer")
  {
    Fixture f(make, k_people, sweeping(0));
    if (can_sweep(f)) {
      const MessageId b1 = send_task(f, "alice", "bob", "one");
      f.tick();
      const MessageId b2 = send_task(f, "alice", "bob", "two");
      f.tick();
      const MessageId b3 = send_task(f, "alice", "bob", "three");
      const MessageId c1 = send_task(f, "alice", "carol");
      const MessageId d1 = send_task(f, "dave", "bob");
      const MessageId acked = send_task(f, "alice", "bob", "answered");
      f.reply("bob", acked, "done");
      f.advance(10 * k_minute_ms);
      const auto report = sweep(f);
      CHECK(report.redelivered.empty());
      REQUIRE(report.escalated.size() == 3);
      // By sender, then peer.
      CHECK(report.escalated[0].sender == "alice");
      CHECK(report.escalated[0].peer == "bob");
      CHECK(report.escalated[0].ids == std::vector<MessageId>{b1, b2, b3}); // oldest first
      CHECK(report.escalated[1].peer == "carol");
      CHECK(report.escalated[1].ids == std::vector<MessageId>{c1});
      CHECK(report.escalated[2].sender == "dave");
      CHECK(report.escalated[2].ids == std::vector<MessageId>{d1});
      const auto escalations_of = [&](const Mailbox& who) {
        std::size_t n = 0;
        for (const auto& m : f.inbox(who)) {
          n += m.from == "mailroom" && m.type == "escalation" ? 1 : 0;
        }
        return n;
      };
      CHECK(escalations_of("alice") == 2);
      CHECK(escalations_of("dave") == 1);
      CHECK(sweep(f).escalated.empty());
      if (f.facets().health) {
        const auto peers = MUST(reach(f.provider()).peers("alice", Mailbox("bob")));
        CHECK(peers.peers[0].escalated_count == 3);
        CHECK(peers.peers[0].pending_count == 0);
        CHECK(peers.peers[0].stale); // a dark peer stays stale until it acks
        MUST(f.change("bob", b1, Change::ack));
        MUST(f.change("bob", b2, Change::ack));
        MUST(f.change("bob", b3, Change::ack));
        CHECK_FALSE(MUST(reach(f.provider()).peers("alice", Mailbox("bob"))).peers[0].stale);
      }
    }
  }

  SUBCASE("Sweep_EscalatesToTheConfiguredMailbox")
  {
    auto policy = sweeping(0);
    policy.redelivery.escalate_to = "ops";
    Fixture f(make, k_people, policy);
    if (can_sweep(f)) {
      const MessageId id = send_task(f, "alice", "bob");
      f.advance(10 * k_minute_ms);
      const auto report = sweep(f);
      REQUIRE(report.escalated.size() == 1);
      CHECK(report.escalated[0].escalate_to == "ops");
      CHECK(f.inbox_ids("ops") == std::vector<MessageId>{*report.escalated[0].escalation_id});
      CHECK(f.inbox_ids("alice").empty());
      CHECK(f.get("ops", *report.escalated[0].escalation_id).body.find(id) != std::string::npos);
    }
  }

  SUBCASE("Sweep_OffChangesNothing")
  {
    Fixture f(make, k_people, sweeping(2, false));
    if (can_sweep(f)) {
      const MessageId id = send_task(f, "alice", "bob");
      f.read("bob", id);
      f.advance(1000 * k_minute_ms);
      const auto off = sweep(f);
      CHECK_FALSE(off.enabled);
      CHECK(off.redelivered.empty());
      CHECK(off.escalated.empty());
      // A dry run still says what a pass would do.
      const auto would = sweep(f, true);
      CHECK_FALSE(would.enabled);
      CHECK(would.dry_run);
      REQUIRE(would.redelivered.size() == 1);
      CHECK(would.redelivered[0].attempt == 1);
      const auto seen = f.get("bob", id);
      CHECK(state_of(seen).read);
      CHECK(state_of(seen).attempts == 0);
      CHECK(state_of(seen).ack_state == AckState::awaiting_ack);
    }
  }

  SUBCASE("Sweep_DryRunChangesNothing")
  {
    Fixture f(make, k_people, sweeping(1));
    if (can_sweep(f)) {
      const MessageId first = send_task(f, "alice", "bob");
      f.read("bob", first);
      f.advance(10 * k_minute_ms);
      sweep(f); // first: attempt 1 of 1
      f.read("bob", first);
      const MessageId second = send_task(f, "alice", "carol");
      f.advance(20 * k_minute_ms); // first is due to give up, second to be redelivered
      const auto would = sweep(f, true);
      CHECK(would.enabled);
      CHECK(would.dry_run);
      REQUIRE(would.redelivered.size() == 1);
      CHECK(would.redelivered[0].id == second);
      REQUIRE(would.escalated.size() == 1);
      CHECK(would.escalated[0].ids == std::vector<MessageId>{first});
      CHECK_FALSE(would.escalated[0].escalation_id.has_value());
      CHECK(state_of(f.get("bob", first)).ack_state == AckState::awaiting_ack);
      CHECK(state_of(f.get("carol", second)).attempts == 0);
      CHECK(f.inbox_ids("alice").empty());
      // The real pass does exactly that.
      const auto done = sweep(f);
      REQUIRE(done.redelivered.size() == 1);
      CHECK(done.redelivered[0].id == second);
      REQUIRE(done.escalated.size() == 1);
      CHECK(done.escalated[0].ids == std::vector<MessageId>{first});
    }
  }

  SUBCASE("Sweep_FromOneSenderInBatches")
  {
    Fixture f(make, k_people, sweeping(3));
    if (can_sweep(f)) {
      std::vector<MessageId> alices;
      for (int i = 0; i < 5; ++i) {
        alices.push_back(send_task(f, "alice", i % 2 == 0 ? "bob" : "carol", "task " + std::to_string(i)));
      }
      const MessageId daves = send_task(f, "dave", "bob");
      f.advance(10 * k_minute_ms);
      const auto report = sweep(f, false, Mailbox("alice"), 2);
      CHECK(report.redelivered.size() == 5); // three batches
      for (const auto& r : report.redelivered) {
        CHECK(r.sender == "alice");
      }
      CHECK(state_of(f.get("bob", daves)).attempts == 0);
      CHECK(sweep(f).redelivered.size() == 1); // dave's
    }
  }

  SUBCASE("Sweep_SkipsAckedExpiredAndUntracked")
  {
    auto policy = sweeping(0);
    policy.redelivery.first_after = 0; // due at once: a pass still acts once per delivery
    Fixture f(make, k_people, policy);
    if (can_sweep(f)) {
      const MessageId acked = send_task(f, "alice", "bob");
      MUST(f.change("bob", acked, Change::ack));
      auto expiring = f.request("alice", {"bob"}, "short", "lived");
      expiring.type = "task_request";
      expiring.ttl = k_minute_ms;
      f.send(expiring);
      f.send("alice", "bob", "plain", "untracked");
      const MessageId due = send_task(f, "alice", "carol");
      f.advance(k_minute_ms);
      const auto report = sweep(f);
      CHECK(report.redelivered.empty());
      REQUIRE(report.escalated.size() == 1);
      CHECK(report.escalated[0].ids == std::vector<MessageId>{due});
    }
  }

  SUBCASE("Sweep_ActsOncePerDeliveryPerPass")
  {
    auto policy = sweeping(2);
    policy.redelivery.first_after = 0; // due again at once after each redelivery
    Fixture f(make, k_people, policy);
    if (can_sweep(f)) {
      const MessageId id = send_task(f, "alice", "bob");
      CHECK(sweep(f).redelivered.size() == 1);
      CHECK(state_of(f.get("bob", id)).attempts == 1);
      f.advance(1);
      const auto second = sweep(f);
      REQUIRE(second.redelivered.size() == 1);
      CHECK(second.redelivered[0].attempt == 2);
      f.advance(1);
      const auto third = sweep(f);
      CHECK(third.redelivered.empty());
      CHECK(third.escalated.size() == 1);
    }
  }
}

} // namespace mailroom::testing::contract
