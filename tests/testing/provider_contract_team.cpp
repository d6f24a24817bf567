// mailroom's contract cases about the team as the operator sees it (contract "The team, as the
// operator sees it"): each state on the test's clock from a scripted team (a worker that answers,
// one that polls but never acks, one that never runs), the figures and order of `team`, human's
// row, and that no view — team, peers, status, trace, thread, a peek, agents — touches presence.

#include <map>
#include <string>

#include "testing/provider_contract_request_support.hpp"

namespace mailroom::testing::contract {

namespace {

const std::vector<Mailbox> k_team = {"lead", "worker", "poller", "ghost", "quiet", "gone"};

mail::MailPolicy team_policy()
{
  mail::MailPolicy policy;
  policy.stale_after = 10 * mail::k_minute_ms;
  policy.presence_after = 30 * mail::k_minute_ms;
  return policy;
}

std::vector<std::pair<Mailbox, std::string>> rows(const mail::TeamResult& team)
{
  std::vector<std::pair<Mailbox, std::string>> out;
  for (const mail::TeamMember& m : team.mailboxes) {
    out.emplace_back(m.mailbox, std::string(mail::to_string(m.state)));
  }
  return out;
}

std::map<Mailbox, std::optional<mail::UnixMillis>> presence(Fixture& f)
{
  std::map<Mailbox, std::optional<mail::UnixMillis>> out;
  for (const mail::Agent& agent : MUST(reach(f.provider()).agents())) {
    out[agent.name] = agent.last_seen;
  }
  return out;
}

// lead asks worker, poller and ghost for something (ack-tracked); worker answers; gone retires.
struct Scripted {
  mail::SendReceipt to_worker, to_poller, to_ghost;
};

Scripted script_team(Fixture& f)
{
  Scripted s;
  s.to_worker = f.send(f.typed_request("lead", "worker", "task_request", "build it"));
  s.to_poller = f.send(f.typed_request("lead", "poller", "task_request", "test it"));
  s.to_ghost = f.send(f.typed_request("lead", "ghost", "task_request", "ship it"));
  MUST(reach(f.provider()).touch("worker", 0, mail::SeenVia::check));
  f.reply("worker", s.to_worker.message.id, "built");
  MUST(reach(f.provider()).remove_agent("gone"));
  return s;
}

} // namespace

void run_team_cases(const ProviderMaker& make)
{
  SUBCASE("Team_EachStateAndTheOrder")
  {
    Fixture f(make, k_team, team_policy());
    if (!f.facets().health || !f.facets().registry) {
      CHECK(code_of(reach(f.provider()).team()) == "unsupported");
      return;
    }
    if (!f.can_tick()) {
      return;
    }
    const Scripted s = script_team(f);
    f.advance(11 * mail::k_minute_ms); // past stale_after: poller's and ghost's requests are overdue
    MUST(reach(f.provider()).touch("poller", 0, mail::SeenVia::check));
    const mail::UnixMillis now = f.now();

    const auto team = MUST(reach(f.provider()).team());
    CHECK(team.presence_after_ms == 30 * mail::k_minute_ms);
    CHECK(team.stale_after_ms == 10 * mail::k_minute_ms);
    // retired last, then dark, not_acking, active, idle; by name within a state.
    const std::vector<std::pair<Mailbox, std::string>> expected = {
        {"ghost", "dark"},    {"poller", "not_acking"}, {"lead", "active"},
        {"worker", "active"}, {"quiet", "idle"},        {"gone", "retired"}};
    CHECK(rows(team) == expected);

    const auto& ghost = team_member(team, "ghost");
    CHECK(ghost.last_seen_at == std::nullopt);
    CHECK(ghost.seen_via == std::nullopt);
    CHECK(ghost.unread == 1);
    CHECK(ghost.owed_count == 1);
    CHECK(ghost.overdue_count == 1);
    const auto& poller = team_member(team, "poller");
    CHECK(poller.last_seen_at == std::optional<mail::UnixMillis>(now));
    CHECK(poller.seen_via == std::optional<mail::SeenVia>(mail::SeenVia::check));
    CHECK(poller.owed_count == 1);
    CHECK(poller.overdue_count == 1);
    const auto& lead = team_member(team, "lead");
    CHECK(lead.seen_via == std::optional<mail::SeenVia>(mail::SeenVia::command)); // its sends
    CHECK(lead.awaiting_others_count == 2);
    CHECK(lead.unread == 1); // worker's answer
    const auto& worker = team_member(team, "worker");
    CHECK(worker.owed_count == 0);
    CHECK(worker.unread == 0);
    CHECK(worker.seen_via == std::optional<mail::SeenVia>(mail::SeenVia::command)); // the reply
    CHECK(team_member(team, "gone").retired_at.has_value());
    CHECK(team_member(team, "quiet").last_seen_at == std::nullopt);

    // Nobody seen for longer than presence_after: those who owe overdue mail are dark, the rest idle.
    f.advance(31 * mail::k_minute_ms);
    const std::vector<std::pair<Mailbox, std::string>> later = {{"ghost", "dark"},  {"poller", "dark"},
                                                                {"lead", "idle"},   {"quiet", "idle"},
                                                                {"worker", "idle"}, {"gone", "retired"}};
    CHECK(rows(MUST(reach(f.provider()).team())) == later);
    (void)s;
  }

  SUBCASE("Team_NotOverdueUntilStaleAfterAndClaimsShow")
  {
    Fixture f(make, k_team, team_policy());
    if (!f.facets().health || !f.facets().claims || !f.can_tick()) {
      return;
    }
    const auto request = f.send(f.typed_request("lead", "ghost", "task_request", "soon"));
    f.advance(10 * mail::k_minute_ms); // not more than stale_after: owed, not overdue
    auto team = MUST(reach(f.provider()).team());
    CHECK(team_member(team, "ghost").state == mail::TeamState::idle);
    CHECK(team_member(team, "ghost").owed_count == 1);
    CHECK(team_member(team, "ghost").overdue_count == 0);

    mail::ClaimRequest claim;
    claim.mailbox = "ghost";
    claim.lease_ms = 60 * mail::k_second_ms;
    claim.watcher = "w1";
    const auto claimed = MUST(reach(f.provider()).claim_next(claim));
    REQUIRE(claimed.claim.has_value());
    f.advance(20 * mail::k_second_ms);
    team = MUST(reach(f.provider()).team());
    REQUIRE(team_member(team, "ghost").claims.size() == 1);
    CHECK(team_member(team, "ghost").claims[0].id == request.message.id);
    CHECK(team_member(team, "ghost").claims[0].subject == "soon");
    CHECK(team_member(team, "ghost").claims[0].claimed_by == "w1");
    CHECK(team_member(team, "ghost").claims[0].lease_left_ms == 40 * mail::k_second_ms);
    CHECK(team_member(team, "ghost").overdue_count == 1); // now older than stale_after

    // A handler that fails its last attempt sets the delivery aside.
    MUST(reach(f.provider())
             .finish_claim(*claimed.claim, mail::ClaimFinish{mail::ClaimOutcome::failed, 0, 1}));
    team = MUST(reach(f.provider()).team());
    CHECK(team_member(team, "ghost").claims.empty());
    CHECK(team_member(team, "ghost").set_aside_count == 1);
  }

  SUBCASE("Team_HumanWhenItHasMail")
  {
    mail::MailPolicy any = team_policy();
    any.recipients = mail::RecipientPolicy::any;
    Fixture f(make, {"lead"}, any);
    if (!f.facets().health || !f.facets().registry) {
      return;
    }
    auto names = [&] {
      std::vector<Mailbox> out;
      for (const auto& m : MUST(reach(f.provider()).team()).mailboxes) {
        out.push_back(m.mailbox);
      }
      return out;
    };
    CHECK(names() == std::vector<Mailbox>{"lead"});
    f.send("lead", "stranger"); // mail to a name never registered makes no row
    CHECK(names() == std::vector<Mailbox>{"lead"});
    f.send("lead", std::string(mail::k_human));
    CHECK(names() == std::vector<Mailbox>{"lead", "human"}); // lead is active (its sends), human idle
    CHECK(team_member(MUST(reach(f.provider()).team()), "human").unread == 1);
  }

  SUBCASE("Team_HumanHasPresence")
  {
    Fixture f(make, {"lead"}, team_policy());
    if (!f.facets().health || !f.facets().registry || !f.can_tick()) {
      return;
    }
    const Mailbox human(mail::k_human);
    // A check by human, before it has any mail, puts it on the team, seen by that check.
    MUST(reach(f.provider()).touch(human, 0, mail::SeenVia::check));
    const mail::UnixMillis checked = f.now();
    auto team = MUST(reach(f.provider()).team());
    const auto& seen = team_member(team, human);
    CHECK(seen.last_seen_at == std::optional<mail::UnixMillis>(checked));
    CHECK(seen.seen_via == std::optional<mail::SeenVia>(mail::SeenVia::check));
    CHECK(seen.state == mail::TeamState::active);
    CHECK_FALSE(seen.retired_at.has_value());
    CHECK(MUST(reach(f.provider()).mailbox_info(human)).state ==
          mail::MailboxInfo::State::unknown); // not registered

    // Presence is throttled as a registered mailbox's is, and human's sends are presence too.
    f.advance(mail::k_minute_ms);
    MUST(reach(f.provider()).touch(human, 5 * mail::k_minute_ms, mail::SeenVia::hook));
    CHECK(team_member(MUST(reach(f.provider()).team()), human).last_seen_at ==
          std::optional<mail::UnixMillis>(checked));
    f.send(human, "lead");
    team = MUST(reach(f.provider()).team());
    CHECK(team_member(team, human).last_seen_at == std::optional<mail::UnixMillis>(f.now()));
    CHECK(team_member(team, human).seen_via == std::optional<mail::SeenVia>(mail::SeenVia::command));
    // Seen long ago and owing nothing: idle, still listed.
    f.advance(31 * mail::k_minute_ms);
    CHECK(team_member(MUST(reach(f.provider()).team()), human).state == mail::TeamState::idle);
  }

  SUBCASE("Team_ViewsNeverTouchPresence")
  {
    Fixture f(make, k_team, team_policy());
    if (!f.facets().health || !f.facets().registry || !f.can_tick()) {
      return;
    }
    const Scripted s = script_team(f);
    f.advance(2 * mail::k_minute_ms);
    const auto before = presence(f);
    const auto team_before = MUST(reach(f.provider()).team());
    for (const Mailbox& viewer : k_team) {
      INFO("viewer ", viewer);
      (void)reach(f.provider()).team();
      (void)reach(f.provider()).peers(viewer, std::nullopt);
      (void)reach(f.provider()).status(s.to_ghost.message.id);
      (void)reach(f.provider()).trace(viewer, s.to_ghost.message.id);
      (void)f.provider().thread(viewer, s.to_ghost.message.id);
      (void)f.provider().get(viewer, s.to_ghost.message.id);
      (void)reach(f.provider()).mailbox_info(viewer);
      (void)reach(f.provider()).agents();
      f.advance(mail::k_minute_ms);
    }
    CHECK(presence(f) == before);
    const auto team_after = MUST(reach(f.provider()).team());
    REQUIRE(team_after.mailboxes.size() == team_before.mailboxes.size());
    for (std::size_t i = 0; i < team_after.mailboxes.size(); ++i) {
      CHECK(team_after.mailboxes[i].last_seen_at == team_before.mailboxes[i].last_seen_at);
      CHECK(team_after.mailboxes[i].seen_via == team_before.mailboxes[i].seen_via);
    }
  }

  SUBCASE("Team_PresenceIsWhatTheStoreIsTold")
  {
    // The stores record the presence they are told and nothing else (contract "Three surfaces,
    // one truth": each surface says its source; a send nobody made as an agent records none).
    Fixture f(make, k_team, team_policy());
    if (!f.facets().health || !f.facets().registry || !f.can_tick()) {
      return;
    }
    mail::SendRequest untold = f.request("lead", {"worker"}, "nobody's", "body");
    untold.seen_via.reset();
    const auto sent = f.send(untold).message;
    CHECK(team_member(MUST(reach(f.provider()).team()), "lead").last_seen_at == std::nullopt);
    f.advance(1000);
    MUST(f.provider().change(mail::Actor{"worker", "worker", mail::SeenVia::http}, sent.id,
                             mail::Change::mark_read));
    auto team = MUST(reach(f.provider()).team());
    CHECK(team_member(team, "worker").seen_via == std::optional<mail::SeenVia>(mail::SeenVia::http));
    CHECK(team_member(team, "worker").last_seen_at == std::optional<mail::UnixMillis>(f.now()));
    // Acting for another records the caller's presence, with the source it was told.
    MUST(f.provider().change(mail::Actor{"worker", "quiet", mail::SeenVia::mcp}, sent.id,
                             mail::Change::archive));
    team = MUST(reach(f.provider()).team());
    CHECK(team_member(team, "quiet").seen_via == std::optional<mail::SeenVia>(mail::SeenVia::mcp));
    // A change told nothing records nothing.
    f.advance(1000);
    MUST(f.provider().change(mail::Actor{"worker", "worker"}, sent.id, mail::Change::unarchive));
    CHECK(team_member(MUST(reach(f.provider()).team()), "worker").last_seen_at ==
          std::optional<mail::UnixMillis>(f.now() - 1000));
  }
}

} // namespace mailroom::testing::contract
