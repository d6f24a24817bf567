// mailroom's contract cases about what the operator reads (contract "The team, as the operator
// sees it"): recent traces, the sender × recipient pairs of `peers --all`, each peer's state, and
// claims and set-aside deliveries in status and the sent summaries. Every case is a view: nothing
// it reads changes presence.

#include <map>
#include <string>

#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

namespace {

const std::vector<Mailbox> k_crew = {"lead", "worker", "poller", "ghost"};

mail::MailPolicy crew_policy()
{
  mail::MailPolicy policy;
  policy.stale_after = 10 * mail::k_minute_ms;
  policy.presence_after = 30 * mail::k_minute_ms;
  return policy;
}

const mail::PairHealth* find_pair(const mail::PairsResult& result, const Mailbox& sender,
                                  const Mailbox& recipient)
{
  for (const mail::PairHealth& pair : result.pairs) {
    if (pair.sender == sender && pair.recipient == recipient) {
      return &pair;
    }
  }
  return nullptr;
}

std::map<Mailbox, std::optional<mail::UnixMillis>> presence(Fixture& f)
{
  std::map<Mailbox, std::optional<mail::UnixMillis>> out;
  for (const mail::Agent& agent : MUST(reach(f.provider()).agents())) {
    out[agent.name] = agent.last_seen;
  }
  return out;
}

} // namespace

void run_operator_cases(const ProviderMaker& make)
{
  SUBCASE("RecentTraces_NewestFirstWithRootCountAndOpenRequests")
  {
    Fixture f(make, k_crew);
    auto& p = f.provider();
    if (!f.facets().views || !f.facets().health) {
      CHECK(code_of(reach(p).recent_traces(10)) == "unsupported");
      return;
    }
    CHECK(MUST(reach(p).recent_traces(10)).empty());
    const auto first = f.send(f.typed_request("lead", "worker", "task_request", "build it"));
    f.tick();
    const auto answer = f.reply("worker", first.message.id, "built");
    f.tick();
    const auto second = f.send(f.typed_request("lead", "poller", "task_request", "test it"));
    f.tick();
    const auto third = f.send("lead", "ghost", "fyi");

    const auto traces = MUST(reach(p).recent_traces(10));
    REQUIRE(traces.size() == 3);
    if (!f.can_tick()) {
      // A clock that stands still: every trace started at the same instant, in trace id order.
      CHECK(traces[0].trace_id < traces[1].trace_id);
      CHECK(traces[1].trace_id < traces[2].trace_id);
      return;
    }
    CHECK(traces[0].trace_id == third.message.trace.trace_id);
    CHECK(traces[1].trace_id == second.message.trace.trace_id);
    CHECK(traces[2].trace_id == first.message.trace.trace_id);
    const mail::TraceSummary& conversation = traces[2];
    CHECK(conversation.root_id == first.message.id);
    CHECK(conversation.root_from == "lead");
    CHECK(conversation.subject == "build it");
    CHECK(conversation.message_count == 2);
    CHECK(conversation.started_at == first.message.created_at);
    CHECK(conversation.last_at == answer.message.created_at);
    CHECK(conversation.open_requests == 0); // the reply acked it
    CHECK(traces[1].open_requests == 1);    // poller still owes an answer
    CHECK(traces[1].message_count == 1);
    CHECK(traces[0].open_requests == 0); // not ack-tracked

    // The limit keeps the newest.
    const auto newest = MUST(reach(p).recent_traces(2));
    REQUIRE(newest.size() == 2);
    CHECK(newest[0].trace_id == third.message.trace.trace_id);
    CHECK(newest[1].trace_id == second.message.trace.trace_id);

    // An ack alone leaves a request owed (Round 4: only its reply completes it); the reply closes it.
    f.expect_outcome(f.change("poller", second.message.id, mail::Change::ack), mail::ChangeOutcome::changed);
    CHECK(MUST(reach(p).recent_traces(2))[1].open_requests == 1);
    f.reply("poller", second.message.id, "tested");
    CHECK(MUST(reach(p).recent_traces(3))[1].open_requests == 0);
  }

  SUBCASE("Pairs_EverySenderRecipientPairWithItsFigures")
  {
    Fixture f(make, k_crew, crew_policy());
    auto& p = f.provider();
    if (!f.facets().health) {
      CHECK(code_of(reach(p).pairs()) == "unsupported");
      return;
    }
    CHECK(MUST(reach(p).pairs()).pairs.empty());
    if (!f.can_tick()) {
      return;
    }
    const auto to_worker = f.send(f.typed_request("lead", "worker", "task_request", "build it"));
    f.send(f.typed_request("lead", "poller", "task_request", "test it"));
    auto expiring = f.typed_request("lead", "ghost", "task_request", "ship it today");
    expiring.ttl = 5 * mail::k_minute_ms;
    f.send(expiring);
    f.send(f.typed_request("lead", "ghost", "task_request", "ship it"));
    f.send("ghost", "ghost", "a note to self"); // not a pair
    f.reply("worker", to_worker.message.id, "built");
    f.advance(11 * mail::k_minute_ms); // past stale_after; the expiring request expired

    const auto before = presence(f);
    const auto result = MUST(reach(p).pairs());
    CHECK(presence(f) == before); // a view: nobody's presence moves
    CHECK(result.stale_count == 2);
    REQUIRE(result.pairs.size() == 4);
    // Stale first, then by sender and recipient.
    CHECK(result.pairs[0].recipient == "ghost");
    CHECK(result.pairs[1].recipient == "poller");
    CHECK(result.pairs[2].recipient == "worker");
    CHECK(result.pairs[3].sender == "worker");

    const auto* ghost = find_pair(result, "lead", "ghost");
    REQUIRE(ghost != nullptr);
    CHECK(ghost->stale);
    CHECK(ghost->pending_count == 1);
    CHECK(ghost->oldest_pending_age_ms == std::optional<mail::Millis>(11 * mail::k_minute_ms));
    CHECK(ghost->escalated_count == 0);
    CHECK(ghost->failed_count == 1); // expired before an ack
    CHECK(ghost->last_sent_at.has_value());
    CHECK(ghost->last_acked_at == std::nullopt);
    const auto* worker = find_pair(result, "lead", "worker");
    REQUIRE(worker != nullptr);
    CHECK_FALSE(worker->stale);
    CHECK(worker->pending_count == 0);
    CHECK(worker->oldest_pending_age_ms == std::nullopt);
    CHECK(worker->last_acked_at.has_value()); // the reply acked it
    const auto* back = find_pair(result, "worker", "lead");
    REQUIRE(back != nullptr);
    CHECK(back->pending_count == 0);
    CHECK(back->failed_count == 0);
    CHECK(find_pair(result, "ghost", "ghost") == nullptr);
  }

  SUBCASE("Peers_EachPeerHasItsTeamState")
  {
    Fixture f(make, k_crew, crew_policy());
    auto& p = f.provider();
    if (!f.facets().health || !f.facets().registry || !f.can_tick()) {
      return;
    }
    const auto to_worker = f.send(f.typed_request("lead", "worker", "task_request", "build it"));
    f.send(f.typed_request("lead", "poller", "task_request", "test it"));
    f.send(f.typed_request("lead", "ghost", "task_request", "ship it"));
    // ghost also owes worker: its state counts what it owes anyone, not only the caller.
    f.send(f.typed_request("worker", "ghost", "task_request", "review it"));
    MUST(reach(p).touch("worker", 0, mail::SeenVia::check));
    f.reply("worker", to_worker.message.id, "built");
    f.advance(11 * mail::k_minute_ms);
    MUST(reach(p).touch("poller", 0, mail::SeenVia::check));

    const auto before = presence(f);
    const auto peers = MUST(reach(p).peers("lead", std::nullopt));
    CHECK(presence(f) == before);
    std::map<Mailbox, std::string> states;
    for (const mail::PeerHealth& peer : peers.peers) {
      states[peer.peer] = std::string(mail::to_string(peer.state));
    }
    const std::map<Mailbox, std::string> expected = {
        {"ghost", "dark"}, {"poller", "not_acking"}, {"worker", "active"}};
    CHECK(states == expected);
    // From worker's side ghost is dark too: its state counts what it owes anyone.
    f.advance(20 * mail::k_minute_ms); // worker not seen for 31 minutes now
    const auto from_worker = MUST(reach(p).peers("worker", std::nullopt));
    for (const mail::PeerHealth& peer : from_worker.peers) {
      if (peer.peer == "ghost") {
        CHECK(peer.state == mail::TeamState::dark);
      }
      if (peer.peer == "lead") {
        CHECK(peer.state == mail::TeamState::idle);
      }
    }
  }

  SUBCASE("ClaimsAndSetAside_ShowInStatusSentAndTrace")
  {
    Fixture f(make, k_crew, crew_policy());
    auto& p = f.provider();
    if (!f.facets().claims || !f.facets().views || !f.can_tick()) {
      return;
    }
    const auto request = f.send(f.typed_request("lead", "worker", "task_request", "build it"));
    mail::ClaimRequest claim;
    claim.mailbox = "worker";
    claim.lease_ms = 60 * mail::k_second_ms;
    claim.watcher = "host:42";
    const auto claimed = MUST(reach(p).claim_next(claim));
    REQUIRE(claimed.claim.has_value());
    f.advance(20 * mail::k_second_ms);

    auto status = MUST(reach(p).status(request.message.id));
    REQUIRE(status.deliveries.size() == 1);
    CHECK(status.deliveries[0].handler_attempts == 1);
    REQUIRE(status.deliveries[0].claim.has_value());
    CHECK(status.deliveries[0].claim->claimed_by == "host:42");
    CHECK(status.deliveries[0].claim->lease_left_ms == 40 * mail::k_second_ms);
    CHECK(status.deliveries[0].set_aside_at == std::nullopt);
    mail::ListQuery sent;
    sent.mailbox = "lead";
    sent.box = mail::Box::sent;
    auto listed = MUST(p.list(sent));
    REQUIRE(listed.messages.size() == 1);
    REQUIRE(listed.messages[0].summary.has_value());
    CHECK(listed.messages[0].summary->claimed == 1);
    CHECK(listed.messages[0].summary->set_aside == 0);

    mail::ClaimFinish failed;
    failed.outcome = mail::ClaimOutcome::failed;
    failed.max_attempts = 1; // the last attempt: set aside
    CHECK(MUST(reach(p).finish_claim(*claimed.claim, failed)).set_aside);

    status = MUST(reach(p).status(request.message.id));
    CHECK(status.deliveries[0].claim == std::nullopt);
    CHECK(status.deliveries[0].set_aside_at.has_value());
    CHECK(mail::failed_handler_attempts(status.deliveries[0]) == 1);
    listed = MUST(p.list(sent));
    CHECK(listed.messages[0].summary->claimed == 0);
    CHECK(listed.messages[0].summary->set_aside == 1);
    CHECK(listed.messages[0].summary->handler_failed == 0);
    const auto trace = MUST(reach(p).trace("lead", request.message.id));
    const auto found = trace.deliveries.find(request.message.id);
    REQUIRE(found != trace.deliveries.end());
    REQUIRE(found->second.size() == 1);
    CHECK(found->second[0].recipient == "worker");
    CHECK(found->second[0].handler_attempts == 1);
    CHECK(found->second[0].set_aside_at.has_value());
  }
}

} // namespace mailroom::testing::contract
