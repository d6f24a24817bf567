// mailroom's contract cases about acknowledgement and delivery health (contract
// "Acknowledgement and delivery health"): which deliveries are tracked, what acks them (a reply,
// `ack`, never a read), and the per-peer figures `peers` shows, against a hand-computed fixture
// on the test's clock. The sweep's cases are in provider_contract_sweep.cpp.

#include <string>

#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

using mail::AckPolicy;

namespace {

const std::vector<Mailbox> k_people = {"alice", "bob", "carol", "dave"};

AckState ack_state_of(Fixture& f, const MessageId& id, const Mailbox& recipient)
{
  return state_of(f.get(recipient, id)).ack_state;
}

mail::MailPolicy policy_with(AckPolicy ack)
{
  mail::MailPolicy policy;
  policy.ack = ack;
  return policy;
}

const mail::PeerHealth* find_peer(const mail::PeersResult& result, const Mailbox& name)
{
  for (const mail::PeerHealth& peer : result.peers) {
    if (peer.peer == name) {
      return &peer;
    }
  }
  return nullptr;
}

} // namespace

void run_health_cases(const ProviderMaker& make)
{
  SUBCASE("Ack_TrackedByTypeFlagAndPolicy")
  {
    struct Row {
      AckPolicy policy;
      const char* type;
      bool ack_flag;
      const char* expected; // an ack state, or an error code
    };
    const Row rows[] = {
        {AckPolicy::typed, "message", false, "none"},
        {AckPolicy::typed, "message", true, "awaiting_ack"},
        {AckPolicy::typed, "task_request", false, "awaiting_ack"},
        {AckPolicy::typed, "cron_task", false, "awaiting_ack"},
        {AckPolicy::typed, "notification", false, "none"},
        {AckPolicy::typed, "escalation", true, "none"},
        {AckPolicy::always, "message", false, "awaiting_ack"},
        {AckPolicy::always, "notification", false, "awaiting_ack"},
        {AckPolicy::always, "escalation", false, "none"},
        {AckPolicy::never, "task_request", false, "none"},
        {AckPolicy::never, "message", false, "none"},
        {AckPolicy::never, "message", true, "usage"},
    };
    for (const Row& row : rows) {
      INFO("policy ", static_cast<int>(row.policy), ", type ", row.type, ", --ack ", row.ack_flag);
      Fixture f(make, k_people, policy_with(row.policy));
      auto request = f.request("alice", {"bob", "carol"});
      request.type = row.type;
      request.ack = row.ack_flag;
      const auto sent = f.provider().send(request);
      if (!f.facets().whole_sends) {
        continue; // ack state travels only with multi-recipient messages (exec: unsupported)
      }
      if (std::string(row.expected) == "usage") {
        REQUIRE(code_of(sent) == "usage");
        CHECK(sent.error().message.find("[delivery] ack") != std::string::npos);
        CHECK(f.count("bob").total == 0);
        continue;
      }
      const MessageId id = MUST(sent).message.id;
      for (const Mailbox who : {"bob", "carol"}) {
        CHECK(mail::to_string(ack_state_of(f, id, who)) == row.expected);
      }
      if (f.facets().views) {
        for (const auto& delivery : MUST(reach(f.provider()).status(id)).deliveries) {
          CHECK(mail::to_string(delivery.ack_state) == row.expected);
        }
      }
    }
  }

  SUBCASE("Ack_ReplyAcksOnlyTheRepliersDeliveriesInThatThread")
  {
    Fixture f(make, k_people);
    if (f.facets().whole_sends && f.facets().views) {
      auto ask = f.request("alice", {"bob", "carol"}, "task", "do it");
      ask.type = "task_request";
      const auto task = f.send(ask).message;
      auto other = f.request("alice", {"bob"}, "another", "elsewhere");
      other.type = "task_request";
      const auto elsewhere = f.send(other).message;
      auto from_dave = f.request("dave", {"bob"}, "dave's", "for bob");
      from_dave.type = "task_request";
      const auto daves = f.send(from_dave).message;
      f.tick();
      // carol answers everyone, asking bob for something in the same thread.
      auto carol_all = Fixture::reply_request("carol", task.id, "mine is done; bob?");
      carol_all.reply_all = true;
      carol_all.ack = true;
      const auto carols = MUST(f.provider().reply(carol_all)).message;
      CHECK(ack_state_of(f, carols.id, "bob") == AckState::awaiting_ack);
      f.tick();
      f.reply("bob", task.id, "done");
      CHECK(ack_state_of(f, task.id, "bob") == AckState::acked);
      CHECK(ack_state_of(f, task.id, "carol") == AckState::acked);           // her own reply acked hers
      CHECK(ack_state_of(f, elsewhere.id, "bob") == AckState::awaiting_ack); // another thread
      CHECK(ack_state_of(f, daves.id, "bob") == AckState::awaiting_ack);     // another sender
      CHECK(ack_state_of(f, carols.id, "bob") == AckState::awaiting_ack);    // same thread, carol's
    }
  }

  SUBCASE("Ack_BroadcastRecipientsAckIndependently")
  {
    Fixture f(make, k_people);
    if (f.facets().whole_sends && f.facets().registry) {
      auto request = f.request("alice", {"@all"}, "everyone", "please confirm");
      request.ack = true;
      const auto sent = f.send(request).message;
      CHECK(MUST(f.provider().change(actor("bob"), sent.id, Change::ack)) == mail::ChangeOutcome::changed);
      f.reply("carol", sent.id, "confirmed");
      CHECK(ack_state_of(f, sent.id, "bob") == AckState::acked);
      CHECK(ack_state_of(f, sent.id, "carol") == AckState::acked);
      CHECK(ack_state_of(f, sent.id, "dave") == AckState::awaiting_ack);
      if (f.facets().health) {
        const auto peers = MUST(reach(f.provider()).peers("alice", std::nullopt));
        REQUIRE(find_peer(peers, "dave") != nullptr);
        CHECK(find_peer(peers, "dave")->pending_count == 1);
        CHECK(find_peer(peers, "bob")->pending_count == 0);
        CHECK(find_peer(peers, "carol")->pending_count == 0);
      }
    }
  }

  SUBCASE("Ack_ReadingIsNotAnAck")
  {
    Fixture f(make, k_people);
    if (f.facets().whole_sends) {
      auto request = f.request("alice", {"bob"});
      request.type = "task_request";
      const auto sent = f.send(request).message;
      f.read("bob", sent.id);
      MUST(f.change("bob", sent.id, Change::mark_unread));
      MUST(f.change("bob", sent.id, Change::mark_read));
      MUST(f.change("bob", sent.id, Change::archive));
      MUST(f.provider().mark_all_read("bob"));
      CHECK(ack_state_of(f, sent.id, "bob") == AckState::awaiting_ack);
      // An operator acks for bob; the record says who.
      CHECK(MUST(f.provider().change(mail::Actor{"bob", "carol"}, sent.id, Change::ack)) ==
            mail::ChangeOutcome::changed);
      CHECK(ack_state_of(f, sent.id, "bob") == AckState::acked);
      if (f.facets().views) {
        const auto status = MUST(reach(f.provider()).status(sent.id));
        REQUIRE(status.deliveries.size() == 1);
        CHECK(status.deliveries[0].acted_by == std::optional<Mailbox>("carol"));
        CHECK(status.deliveries[0].acked_at.has_value());
      }
    }
  }

  SUBCASE("Ack_LateAckTurnsFailedIntoAckedAndAckedStays")
  {
    Fixture f(make, k_people);
    if (f.facets().whole_sends && f.can_tick()) {
      auto request = f.request("alice", {"bob"});
      request.ack = true;
      request.ttl = mail::k_minute_ms;
      const auto sent = f.send(request).message;
      f.advance(mail::k_minute_ms);
      CHECK(ack_state_of(f, sent.id, "bob") == AckState::failed);
      CHECK(MUST(f.change("bob", sent.id, Change::ack)) == mail::ChangeOutcome::changed);
      CHECK(ack_state_of(f, sent.id, "bob") == AckState::acked);
      CHECK(MUST(f.change("bob", sent.id, Change::ack)) == mail::ChangeOutcome::already);
      f.reply("bob", sent.id, "again");
      CHECK(ack_state_of(f, sent.id, "bob") == AckState::acked);
    }
  }

  SUBCASE("Peers_FiguresFromTheStore")
  {
    Fixture f(make, k_people);
    if (!f.facets().health) {
      CHECK(code_of(reach(f.provider()).peers("alice", std::nullopt)) == "unsupported");
    } else if (f.can_tick()) {
      using mail::k_minute_ms;
      const mail::UnixMillis t0 = f.now();
      auto task = f.request("alice", {"bob"}, "task", "do it");
      task.type = "task_request";
      const auto to_bob = f.send(task).message; // t0, pending
      f.advance(k_minute_ms);
      f.send("alice", "bob", "fyi", "untracked"); // t0+1m
      f.advance(k_minute_ms);
      f.send("bob", "alice", "hello", "from bob"); // t0+2m
      f.advance(k_minute_ms);
      auto for_carol = f.request("alice", {"carol"}, "task", "for carol");
      for_carol.type = "task_request";
      const auto to_carol = f.send(for_carol).message; // t0+3m
      f.advance(2 * k_minute_ms);
      MUST(f.change("carol", to_carol.id, Change::ack)); // t0+5m
      f.advance(5 * k_minute_ms);
      auto for_dave = f.request("alice", {"dave"}, "short", "expires");
      for_dave.type = "task_request";
      for_dave.ttl = k_minute_ms;
      f.send(for_dave); // t0+10m, expired by t0+11m: failed, no longer pending
      f.advance(30 * k_minute_ms);
      const mail::UnixMillis now = t0 + 40 * k_minute_ms;
      REQUIRE(f.now() == now);

      const auto all = MUST(reach(f.provider()).peers("alice", std::nullopt));
      CHECK(all.mailbox == "alice");
      REQUIRE(all.peers.size() == 3);
      CHECK(all.stale_count == 1);
      CHECK(all.peers[0].peer == "bob"); // stale first, then by name
      CHECK(all.peers[1].peer == "carol");
      CHECK(all.peers[2].peer == "dave");
      const mail::PeerHealth& bob = all.peers[0];
      CHECK(bob.last_sent_at == std::optional<mail::UnixMillis>(t0 + k_minute_ms));
      CHECK_FALSE(bob.last_acked_at.has_value());
      CHECK(bob.last_inbound_at == std::optional<mail::UnixMillis>(t0 + 2 * k_minute_ms));
      CHECK(bob.last_seen_at == std::optional<mail::UnixMillis>(t0 + 2 * k_minute_ms));
      CHECK(bob.pending_count == 1);
      CHECK(bob.oldest_pending_age_ms == std::optional<mail::Millis>(now - to_bob.created_at));
      CHECK(bob.escalated_count == 0);
      CHECK(bob.stale);
      const mail::PeerHealth& carol = all.peers[1];
      CHECK(carol.last_sent_at == std::optional<mail::UnixMillis>(t0 + 3 * k_minute_ms));
      CHECK(carol.last_acked_at == std::optional<mail::UnixMillis>(t0 + 5 * k_minute_ms));
      CHECK_FALSE(carol.last_inbound_at.has_value());
      CHECK(carol.last_seen_at == std::optional<mail::UnixMillis>(t0 + 5 * k_minute_ms));
      CHECK(carol.pending_count == 0);
      CHECK_FALSE(carol.oldest_pending_age_ms.has_value());
      CHECK_FALSE(carol.stale);
      const mail::PeerHealth& dave = all.peers[2];
      CHECK(dave.last_sent_at == std::optional<mail::UnixMillis>(t0 + 10 * k_minute_ms));
      CHECK(dave.pending_count == 0);
      CHECK_FALSE(dave.last_seen_at.has_value());
      CHECK_FALSE(dave.stale);

      // One peer has the same figures; a stranger or oneself is not found.
      const auto one = MUST(reach(f.provider()).peers("alice", Mailbox("carol")));
      REQUIRE(one.peers.size() == 1);
      CHECK(one.peers[0].last_acked_at == carol.last_acked_at);
      CHECK(one.stale_count == 0);
      CHECK(MUST(reach(f.provider()).peers("alice", Mailbox("bob"))).stale_count == 1);
      CHECK(code_of(reach(f.provider()).peers("alice", Mailbox("zed"))) == "not_found");
      CHECK(code_of(reach(f.provider()).peers("alice", Mailbox("alice"))) == "not_found");
      CHECK(code_of(reach(f.provider()).peers("carol", Mailbox("dave"))) == "not_found");

      // The other side: bob's message to alice is untracked, alice's to him inbound.
      const auto of_bob = MUST(reach(f.provider()).peers("bob", std::nullopt));
      REQUIRE(of_bob.peers.size() == 1);
      CHECK(of_bob.peers[0].peer == "alice");
      CHECK(of_bob.peers[0].last_sent_at == std::optional<mail::UnixMillis>(t0 + 2 * k_minute_ms));
      CHECK(of_bob.peers[0].last_inbound_at == std::optional<mail::UnixMillis>(t0 + k_minute_ms));
      CHECK(of_bob.peers[0].pending_count == 0);
      CHECK(of_bob.stale_count == 0);

      // Under the threshold nobody is stale; bob's reply acks and clears his pending figure.
      f.reply("bob", to_bob.id, "done");
      const auto after = MUST(reach(f.provider()).peers("alice", Mailbox("bob")));
      CHECK(after.peers[0].pending_count == 0);
      CHECK(after.peers[0].last_acked_at == std::optional<mail::UnixMillis>(now));
      CHECK_FALSE(after.peers[0].stale);
    }
  }

  SUBCASE("Peers_StaleAfterIsThePolicys")
  {
    mail::MailPolicy policy;
    policy.stale_after = 5 * mail::k_minute_ms;
    Fixture f(make, k_people, policy);
    if (f.facets().health && f.can_tick()) {
      auto request = f.request("alice", {"bob"});
      request.ack = true;
      f.send(request);
      f.advance(5 * mail::k_minute_ms);
      CHECK_FALSE(MUST(reach(f.provider()).peers("alice", std::nullopt)).peers.at(0).stale); // not more than
      f.advance(1);
      CHECK(MUST(reach(f.provider()).peers("alice", std::nullopt)).peers.at(0).stale);
    }
  }
}

} // namespace mailroom::testing::contract
