// mailroom's contract cases about a request's life over time and in the views (contract "The life
// of a request" and its decisions after review): the TTL paused while a question waits, on the
// test's frozen clock; the sweep skipping requests that are not submitted or working; what `team`
// counts as owed; export -> import -> export keeping every state; and how a wait for the reply
// ends for each answer that is not one.

#include <algorithm>
#include <string>

#include "mail/claims.hpp"
#include "mail/waiting.hpp"
#include "render/transfer.hpp"
#include "testing/provider_contract_request_support.hpp"

namespace mailroom::testing::contract {

using mail::RequestState;
using mail::RequestVerb;

namespace {

const std::vector<Mailbox> k_people = {"alice", "bob", "carol", "dave", "erin"};

constexpr mail::Millis k_ttl = 10 * mail::k_second_ms;

mail::SendReceipt answer(Fixture& f, const Mailbox& from, const MessageId& id, RequestVerb verb,
                         const std::string& text = "because")
{
  return MUST(respond(f, from, id, verb, text));
}

mail::CancelResult withdraw(Fixture& f, const Mailbox& sender, const MessageId& id,
                            std::optional<Mailbox> only = std::nullopt)
{
  return MUST(cancel(f, sender, id, std::move(only)));
}

// How a wait for a reply to `id` as `waiter` ends now (a deadline already past: one look).
mail::WaitOutcome wait_reply(Fixture& f, const Mailbox& waiter, const MessageId& id)
{
  mail::WaitQuery query;
  query.mailbox = waiter;
  query.reply_to = id;
  return MUST(mail::wait_for(f.provider(), query, std::chrono::steady_clock::now(), -1));
}

} // namespace

void run_request_life_cases(const ProviderMaker& make)
{
  SUBCASE("RequestLife_AQuestionPausesTheTtl")
  {
    Fixture f(make, k_people);
    if (!f.facets().requests || !f.can_tick()) {
      return;
    }
    const MessageId id = send_request(f, "alice", {"bob"}, "task", k_ttl);
    const mail::UnixMillis sent_at = f.now();
    f.advance(4 * mail::k_second_ms);
    const auto question = answer(f, "bob", id, RequestVerb::ask, "which branch?");
    f.advance(20 * mail::k_second_ms); // well past the TTL, while the question waits
    CHECK(request_state(f, "bob", id) == RequestState::input_required);
    CHECK(delivery_to(MUST(reach(f.provider()).status(id)), "bob").expires_at ==
          std::optional<mail::UnixMillis>(sent_at + k_ttl));
    f.reply("alice", question.message.id, "main");
    // Taken up again with the 20 s it waited added to its own expiry (the message's stays).
    const auto status = MUST(reach(f.provider()).status(id));
    CHECK(delivery_to(status, "bob").expires_at == std::optional<mail::UnixMillis>(sent_at + k_ttl + 20'000));
    CHECK(status.message.expires_at == std::optional<mail::UnixMillis>(sent_at + k_ttl));
    CHECK(request_state(f, "bob", id) == RequestState::working);
    CHECK(contains(f.inbox_ids("bob"), id));
    CHECK_FALSE(f.get("bob", id).expired);
    f.advance(k_ttl - 4 * mail::k_second_ms - 1); // 1 ms short of the pushed-back expiry
    CHECK(request_state(f, "bob", id) == RequestState::working);
    f.advance(1);
    CHECK(request_state(f, "bob", id) == RequestState::expired);
    CHECK_FALSE(contains(f.inbox_ids("bob"), id));
    // A late reply still completes it, as a late ack acks.
    f.reply("bob", id, "done, late");
    CHECK(request_state(f, "bob", id) == RequestState::completed);
  }

  SUBCASE("RequestLife_TheSweepSkipsRequestsThatAreNotOpen")
  {
    mail::MailPolicy policy;
    policy.redelivery.enabled = true;
    policy.redelivery.first_after = 10 * mail::k_minute_ms;
    policy.redelivery.max_attempts = 3;
    Fixture f(make, k_people, policy);
    if (!f.facets().requests || !f.facets().health || !f.facets().claims || !f.can_tick()) {
      return;
    }
    const MessageId id = send_request(f, "alice", {"bob", "carol", "dave", "erin"});
    withdraw(f, "alice", id, Mailbox("carol")); // canceled: its life ended
    // A watcher gave up on erin's: failed, though still awaiting its ack.
    mail::ClaimRequest claim;
    claim.mailbox = "erin";
    claim.lease_ms = mail::k_minute_ms;
    claim.watcher = "w1";
    claim.max_attempts = 1;
    const auto claimed = MUST(reach(f.provider()).claim_next(claim)).claim;
    REQUIRE(claimed.has_value());
    CHECK(
        MUST(reach(f.provider()).finish_claim(*claimed, mail::ClaimFinish{mail::ClaimOutcome::failed, 0, 1}))
            .set_aside);
    const auto status = MUST(reach(f.provider()).status(id));
    CHECK(delivery_to(status, "erin").request_state == RequestState::failed);
    CHECK(delivery_to(status, "erin").ack_state == AckState::awaiting_ack);
    f.advance(11 * mail::k_minute_ms);
    const auto report = MUST(reach(f.provider()).sweep(mail::SweepRequest{}));
    std::vector<Mailbox> redelivered;
    for (const auto& r : report.redelivered) {
      CHECK(r.id == id);
      redelivered.push_back(r.recipient);
    }
    CHECK(sorted(redelivered) == std::vector<Mailbox>{"bob", "dave"});
    CHECK(report.escalated.empty());
  }

  SUBCASE("RequestLife_TeamOwesOnlySubmittedAndWorking")
  {
    mail::MailPolicy policy;
    policy.stale_after = 10 * mail::k_minute_ms;
    Fixture f(make, k_people, policy);
    if (!f.facets().requests || !f.facets().health) {
      return;
    }
    const MessageId id = send_request(f, "alice", {"bob", "carol", "dave", "erin"});
    f.read("carol", id);
    MUST(f.change("carol", id, Change::ack)); // ack alone leaves it working: still owed
    answer(f, "dave", id, RequestVerb::decline);
    answer(f, "erin", id, RequestVerb::ask, "when?"); // erin waits: alice owes the answer
    auto acked = f.request("bob", {"alice"}, "ack this", "please");
    acked.ack = true;
    f.send(acked); // no request, awaiting an ack: owed as before
    const auto team = MUST(reach(f.provider()).team());
    CHECK(team_member(team, "bob").owed_count == 1);
    CHECK(team_member(team, "carol").owed_count == 1);
    CHECK(team_member(team, "dave").owed_count == 0);
    CHECK(team_member(team, "erin").owed_count == 0);
    CHECK(team_member(team, "alice").owed_count == 2);            // erin's question and bob's ack
    CHECK(team_member(team, "alice").awaiting_others_count == 2); // bob's and carol's
    CHECK(team_member(team, "erin").awaiting_others_count == 1);  // its question to alice
  }

  SUBCASE("RequestLife_ExportImportKeepsEveryState")
  {
    Fixture a(make, k_people);
    if (!a.facets().requests || !a.facets().transfer || !a.can_tick()) {
      return;
    }
    const MessageId id = send_request(a, "alice", {"bob", "carol", "dave", "erin"}, "task", k_ttl);
    a.tick();
    a.read("bob", id);
    answer(a, "carol", id, RequestVerb::decline);
    const auto question = answer(a, "dave", id, RequestVerb::ask, "how?");
    a.tick();
    a.reply("alice", question.message.id, "carefully"); // dave's expiry is pushed back
    withdraw(a, "alice", id, Mailbox("erin"));
    std::vector<std::string> lines;
    MUST(reach(a.provider()).export_records({}, [&](const mail::Record& r) {
      lines.push_back(render::encode_record(r));
      return Result<void>();
    }));
    std::vector<mail::Record> records;
    for (const std::string& line : lines) {
      // Through the bytes: the decoder reads what the encoder wrote (without its newline).
      const auto decoded = MUST(render::decode_line(std::string_view(line).substr(0, line.size() - 1)));
      REQUIRE(std::holds_alternative<mail::Record>(decoded));
      records.push_back(std::get<mail::Record>(decoded));
    }
    Fixture b(make, {});
    mail::VectorSource source(records);
    MUST(reach(b.provider()).import_records(source));
    std::vector<std::string> again;
    MUST(reach(b.provider()).export_records({}, [&](const mail::Record& r) {
      again.push_back(render::encode_record(r));
      return Result<void>();
    }));
    CHECK(again == lines);
    const auto status = MUST(reach(b.provider()).status(id));
    CHECK(delivery_to(status, "bob").request_state == RequestState::working);
    CHECK(delivery_to(status, "carol").request_state == RequestState::rejected);
    CHECK(delivery_to(status, "dave").request_state == RequestState::working);
    CHECK(delivery_to(status, "erin").request_state == RequestState::canceled);
    CHECK(delivery_to(status, "dave").expires_at ==
          delivery_to(MUST(reach(a.provider()).status(id)), "dave").expires_at);
    // The cancel ended erin's delivery at a's time: on b's clock, brought to it, the request is not
    // listed and erin's inbox holds what it holds on a (the canceled notice).
    if (b.now() < a.now()) {
      b.advance(a.now() - b.now());
    }
    const std::vector<MessageId> erin = b.inbox_ids("erin");
    CHECK(std::find(erin.begin(), erin.end(), id) == erin.end());
    CHECK(erin == a.inbox_ids("erin"));
  }

  SUBCASE("RequestLife_AWaitForTheReplyEndsWithEachAnswer")
  {
    Fixture f(make, k_people);
    if (!f.facets().requests || !f.facets().views) {
      return;
    }
    // One recipient: each answer ends the wait at once, with its notice.
    struct Case {
      RequestVerb verb;
      mail::WaitEnd end;
      const char* type;
    };
    for (const Case c : {Case{RequestVerb::decline, mail::WaitEnd::rejected, "declined"},
                         Case{RequestVerb::ask, mail::WaitEnd::input_required, "input_required"},
                         Case{RequestVerb::fail, mail::WaitEnd::failed, "failed"}}) {
      INFO("verb ", mail::to_string(c.verb));
      const MessageId id = send_request(f, "alice", {"bob"});
      const auto notice = answer(f, "bob", id, c.verb);
      const auto ended = wait_reply(f, "alice", id);
      CHECK(ended.end == c.end);
      REQUIRE(ended.notice.has_value());
      CHECK(ended.notice->id == notice.message.id);
      CHECK(ended.notice->type == c.type);
      CHECK_FALSE(ended.message.has_value());
    }
    const MessageId withdrawn = send_request(f, "alice", {"bob"});
    const auto canceled = withdraw(f, "alice", withdrawn);
    const auto ended = wait_reply(f, "alice", withdrawn);
    CHECK(ended.end == mail::WaitEnd::canceled);
    REQUIRE(ended.notice.has_value());
    CHECK(ended.notice->id == *canceled.notice);
    // Two recipients: one declining leaves the other's answer to wait for; then the first present
    // of input_required, rejected, failed, canceled, expired names the end.
    const MessageId both = send_request(f, "alice", {"bob", "carol"});
    answer(f, "bob", both, RequestVerb::decline);
    CHECK(wait_reply(f, "alice", both).end == mail::WaitEnd::timed_out);
    answer(f, "carol", both, RequestVerb::ask, "really?");
    CHECK(wait_reply(f, "alice", both).end == mail::WaitEnd::input_required);
    // A real reply is what a waiter finds, whatever came before it.
    const MessageId answered = send_request(f, "alice", {"bob", "carol"});
    answer(f, "carol", answered, RequestVerb::fail);
    const auto reply = f.reply("bob", answered, "done").message;
    const auto found = wait_reply(f, "alice", answered);
    CHECK(found.end == mail::WaitEnd::found);
    REQUIRE(found.message.has_value());
    CHECK(found.message->id == reply.id);
  }
}

} // namespace mailroom::testing::contract
