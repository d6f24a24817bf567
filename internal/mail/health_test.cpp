#include "mail/health.hpp"

#include <doctest/doctest.h>

#include "mail/ack.hpp"
#include "mail/limits.hpp"

using namespace mailroom::mail;

namespace {

PeerHealth peer(const char* name, std::optional<Millis> oldest, std::int64_t escalated)
{
  PeerHealth p;
  p.peer = name;
  p.oldest_pending_age_ms = oldest;
  p.escalated_count = escalated;
  return p;
}

DueDelivery due(const char* id, UnixMillis created_at)
{
  DueDelivery d;
  d.id = id;
  d.sender = "alice";
  d.recipient = "bob";
  d.subject = std::string("subject of ") + id;
  d.thread_id = "thread-000000000001";
  d.created_at = created_at;
  d.attempts = 4;
  return d;
}

} // namespace

TEST_SUITE("mailroom::mail::health")
{
  TEST_CASE("peers: stale past stale_after or with an escalation, stale first then by name")
  {
    const auto result = finish_peers("me",
                                     {peer("zed", 31 * k_minute_ms, 0), peer("amy", std::nullopt, 0),
                                      peer("bob", 30 * k_minute_ms, 0), peer("cat", std::nullopt, 2)},
                                     30 * k_minute_ms, 100 * k_minute_ms, 30 * k_minute_ms);
    CHECK(result.mailbox == "me");
    CHECK(result.stale_count == 2);
    REQUIRE(result.peers.size() == 4);
    CHECK(result.peers[0].peer == "cat");
    CHECK(result.peers[1].peer == "zed");
    CHECK(result.peers[2].peer == "amy");
    CHECK(result.peers[3].peer == "bob"); // exactly stale_after is not older than it
    CHECK(result.peers[0].stale);
    CHECK_FALSE(result.peers[3].stale);
  }

  TEST_CASE("peers: each peer's team state from its presence and whether it owes overdue mail")
  {
    const UnixMillis now = 100 * k_minute_ms;
    auto seen = peer("seen", std::nullopt, 0);
    seen.last_seen_at = now - 5 * k_minute_ms;
    auto seen_owing = seen;
    seen_owing.peer = "seen_owing";
    seen_owing.owes_overdue = true;
    auto dark = peer("dark", std::nullopt, 0);
    dark.last_seen_at = now - 31 * k_minute_ms; // longer ago than presence_after
    dark.owes_overdue = true;
    auto idle = peer("idle", std::nullopt, 0);
    const auto result =
        finish_peers("me", {seen, seen_owing, dark, idle}, 30 * k_minute_ms, now, 30 * k_minute_ms);
    REQUIRE(result.peers.size() == 4);
    CHECK(result.peers[0].state == TeamState::dark);
    CHECK(result.peers[1].state == TeamState::idle);
    CHECK(result.peers[2].state == TeamState::active);
    CHECK(result.peers[3].state == TeamState::not_acking);
  }

  TEST_CASE("pairs: stale as for peers, stale first, then by sender and recipient")
  {
    auto pair = [](const char* sender, const char* recipient, std::optional<Millis> oldest,
                   std::int64_t escalated) {
      PairHealth p;
      p.sender = sender;
      p.recipient = recipient;
      p.oldest_pending_age_ms = oldest;
      p.escalated_count = escalated;
      return p;
    };
    const auto result = finish_pairs({pair("b", "a", std::nullopt, 0), pair("a", "c", std::nullopt, 0),
                                      pair("z", "a", 31 * k_minute_ms, 0), pair("a", "b", std::nullopt, 0),
                                      pair("c", "a", std::nullopt, 1)},
                                     30 * k_minute_ms);
    CHECK(result.stale_count == 2);
    REQUIRE(result.pairs.size() == 5);
    CHECK(result.pairs[0].sender == "c");
    CHECK(result.pairs[1].sender == "z");
    CHECK(result.pairs[2].recipient == "b");
    CHECK(result.pairs[3].recipient == "c");
    CHECK(result.pairs[4].sender == "b");
    CHECK(result.pairs[0].stale);
    CHECK_FALSE(result.pairs[4].stale);
  }

  TEST_CASE("the schedule: first_after, then first_after x backoff^k after redelivery k; then give up")
  {
    RedeliverySchedule schedule;
    schedule.first_after = 10 * k_minute_ms;
    schedule.backoff = 2.0;
    schedule.max_attempts = 3;
    const UnixMillis t0 = 1'000'000;
    CHECK(next_attempt_at(t0, 0, schedule) == t0 + 10 * k_minute_ms);
    UnixMillis now = t0 + 10 * k_minute_ms;
    const Millis waits[] = {20 * k_minute_ms, 40 * k_minute_ms, 80 * k_minute_ms};
    for (std::int64_t attempts = 0; attempts < 3; ++attempts) {
      CHECK(redeliver_again(attempts, schedule));
      const auto step = redelivery_step(attempts, now, schedule);
      CHECK(step.attempt == attempts + 1);
      CHECK(step.next_attempt_at == now + waits[attempts]);
      now = step.next_attempt_at;
    }
    CHECK_FALSE(redeliver_again(3, schedule));
    schedule.max_attempts = 0;
    CHECK_FALSE(redeliver_again(0, schedule));
  }

  TEST_CASE("escalations go to the sender or the configured mailbox")
  {
    RedeliverySchedule schedule;
    CHECK(escalation_recipient("alice", schedule) == "alice");
    schedule.escalate_to = "ops";
    CHECK(escalation_recipient("alice", schedule) == "ops");

    MailPolicy policy;
    CHECK(escalation_policy(policy).recipients == RecipientPolicy::any);
    policy.redelivery.escalate_to = "ops";
    CHECK(escalation_policy(policy).recipients == RecipientPolicy::registered);
  }

  TEST_CASE("one escalation names every message that gave up, from mailroom, never tracked")
  {
    RedeliverySchedule schedule;
    schedule.max_attempts = 4;
    DarkPeer dark{"alice", "bob", {due("mr-1", 0), due("mr-2", k_hour_ms)}, std::nullopt};
    const UnixMillis now = 5 * k_hour_ms + 30 * k_minute_ms;
    const SendRequest request = escalation_request(dark, schedule, now);
    CHECK(request.from == "mailroom");
    CHECK(request.to == std::vector<std::string>{"alice"});
    CHECK(request.type == "escalation");
    CHECK(request.priority == Priority::urgent);
    CHECK_FALSE(request.ack);
    CHECK(request.subject == std::optional<std::string>("bob is dark: 2 message(s) not acknowledged"));
    CHECK(request.body.find("- mr-1 (thread thread-000000000001): subject of mr-1\n") != std::string::npos);
    CHECK(request.body.find("- mr-2 (thread") != std::string::npos);
    CHECK(request.body.find("redelivered 4 time(s)") != std::string::npos);
    CHECK(request.body.find("The oldest was sent 5h30m ago.") != std::string::npos);
    CHECK(request.body.find("bob has never run a mailroom command.") != std::string::npos);
    CHECK_FALSE(is_ack_tracked(MessageType{"escalation", false, "message"}, request.ack, AckPolicy::always));

    dark.peer_last_seen = now - 2 * k_day_ms - 3 * k_hour_ms - 5 * k_minute_ms;
    CHECK(escalation_request(dark, schedule, now).body.find("bob last ran a mailroom command 2d3h ago.") !=
          std::string::npos);
    CHECK(escalation_request(dark, schedule, now).subject ==
          std::optional<std::string>("bob is dark: 2 message(s) not acknowledged"));
  }

  TEST_CASE("dark means dark: a peer seen within presence_after has only not acknowledged")
  {
    DarkPeer dark{"alice", "bob", {due("mr-1", 0)}, std::nullopt};
    const UnixMillis now = 5 * k_hour_ms;
    dark.peer_last_seen = now - 40 * 1000 - 300;
    CHECK(escalation_request(dark, RedeliverySchedule{}, now, 30 * k_minute_ms).subject ==
          std::optional<std::string>("bob has not acknowledged 1 message(s) (seen 40s ago)"));
    dark.peer_last_seen = now - 12 * k_minute_ms - 5000;
    CHECK(escalation_request(dark, RedeliverySchedule{}, now, 30 * k_minute_ms).subject ==
          std::optional<std::string>("bob has not acknowledged 1 message(s) (seen 12m ago)"));
    // Past presence_after the same peer is dark.
    CHECK(escalation_request(dark, RedeliverySchedule{}, now, 10 * k_minute_ms).subject ==
          std::optional<std::string>("bob is dark: 1 message(s) not acknowledged"));
  }

  TEST_CASE("an escalation about more messages than fit stays under the body cap and says how many more")
  {
    DarkPeer dark{"alice", "bob", {}, std::nullopt};
    const std::string long_subject(100, 's'); // cut to 80 in the list: ~120 bytes a line
    for (int i = 0; i < 100'000; ++i) {
      dark.gave_up.push_back(due("mr-x", 0));
      dark.gave_up.back().subject = long_subject;
    }
    const SendRequest request = escalation_request(dark, RedeliverySchedule{}, k_hour_ms);
    CHECK(request.body.size() <= k_max_body_bytes);
    CHECK(request.body.find("more (mailroom peers bob shows the count)") != std::string::npos);
  }
}
