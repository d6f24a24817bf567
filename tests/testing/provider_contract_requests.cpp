// mailroom's contract cases about the life of a request (contract "The life of a request (A2A
// task states)" and its decisions after review): each move a delivery's request_state makes, who
// may make it, and every move that is refused. A store without the requests facet (the exec
// provider) answers cancel, decline, ask and fail unsupported and shows no request_state.

#include <string>

#include "mail/claims.hpp"
#include "testing/provider_contract_request_support.hpp"

namespace mailroom::testing::contract {

using mail::RequestState;
using mail::RequestVerb;

namespace {

const std::vector<Mailbox> k_people = {"alice", "bob", "carol", "dave", "erin"};

// True when the store keeps request states; otherwise checks that it says so.
bool keeps_requests(Fixture& f)
{
  if (f.facets().requests) {
    return true;
  }
  const MessageId id = f.send("alice", "bob").message.id; // no typed sends there either
  const auto seen = f.get("bob", id);
  CHECK((!seen.state || !seen.state->request_state));
  CHECK(code_of(cancel(f, "alice", id)) == "unsupported");
  CHECK(code_of(respond(f, "bob", id, RequestVerb::decline)) == "unsupported");
  return false;
}

} // namespace

void run_request_cases(const ProviderMaker& make)
{
  SUBCASE("Request_SubmittedThenWorkingThenCompletedByTheReplyOnly")
  {
    Fixture f(make, k_people);
    if (!keeps_requests(f)) {
      return;
    }
    const MessageId id = send_request(f, "alice", {"bob"});
    CHECK(request_state(f, "bob", id) == RequestState::submitted);
    CHECK_FALSE(state_of(f.get("bob", f.send("alice", "bob").message.id)).request_state.has_value());
    CHECK_FALSE(f.get("carol", id).state.has_value()); // a non-recipient has no state (JSON null)
    f.read("bob", id);
    CHECK(request_state(f, "bob", id) == RequestState::working);
    // Ack alone leaves it working; mark-unread does not move it back.
    MUST(f.change("bob", id, Change::ack));
    MUST(f.change("bob", id, Change::mark_unread));
    CHECK(request_state(f, "bob", id) == RequestState::working);
    const auto done = f.reply("bob", id, "done").message;
    CHECK(request_state(f, "bob", id) == RequestState::completed);
    // The reply expects none; answering it moves nothing.
    f.reply("alice", done.id, "thanks");
    CHECK_FALSE(state_of(f.get("alice", done.id)).request_state.has_value());
    const auto status = MUST(reach(f.provider()).status(id));
    REQUIRE(status.deliveries.size() == 1);
    CHECK(status.deliveries[0].request_state == RequestState::completed);
    CHECK(status.deliveries[0].request_state_at.has_value());
    // Terminal: nothing moves it any more.
    CHECK(code_of(respond(f, "bob", id, RequestVerb::fail)) == "conflict");
    CHECK(request_state(f, "bob", id) == RequestState::completed);
  }

  SUBCASE("Request_DeclineAndFailSendTheirNoticeToTheSender")
  {
    Fixture f(make, k_people);
    if (!keeps_requests(f)) {
      return;
    }
    const MessageId id = send_request(f, "alice", {"bob", "carol"}, "deploy");
    const auto declined = MUST(respond(f, "bob", id, RequestVerb::decline, "not my area"));
    CHECK(declined.message.type == "declined");
    CHECK(declined.message.subject == "Declined: deploy");
    CHECK(declined.message.body == "not my area");
    CHECK(declined.message.reply_to == std::optional<MessageId>(id));
    CHECK(declined.recipients == std::vector<Mailbox>{"alice"});
    CHECK(request_state(f, "bob", id) == RequestState::rejected);
    CHECK(request_state(f, "carol", id) == RequestState::submitted);
    const auto failed = MUST(respond(f, "carol", id, RequestVerb::fail, "disk full"));
    CHECK(failed.message.type == "failed");
    CHECK(failed.message.subject == "Failed: deploy");
    CHECK(request_state(f, "carol", id) == RequestState::failed);
    // Both notices reached the sender, as ordinary mail that expects no reply.
    CHECK(contains(f.inbox_ids("alice"), declined.message.id));
    CHECK(contains(f.inbox_ids("alice"), failed.message.id));
    CHECK_FALSE(state_of(f.get("alice", declined.message.id)).request_state.has_value());
    // Every later move is refused and sends nothing.
    for (const RequestVerb verb : {RequestVerb::decline, RequestVerb::ask, RequestVerb::fail}) {
      INFO("verb ", mail::to_string(verb));
      const auto again = respond(f, "bob", id, verb, "again?");
      CHECK(code_of(again) == "conflict");
    }
    CHECK(f.count("alice").total == 2);
    CHECK(request_state(f, "bob", id) == RequestState::rejected);
  }

  SUBCASE("Request_WhoMayAnswerAndWhatIsNoRequest")
  {
    Fixture f(make, k_people);
    if (!keeps_requests(f)) {
      return;
    }
    const MessageId id = send_request(f, "alice", {"bob"});
    const MessageId plain = f.send("alice", "bob", "fyi").message.id;
    // A non-recipient (the sender too) may not decline, ask or fail: not_recipient.
    CHECK(code_of(respond(f, "carol", id, RequestVerb::decline)) == "not_recipient");
    CHECK(code_of(respond(f, "alice", id, RequestVerb::fail)) == "not_recipient");
    // A message that expects no reply: usage, for every verb and for cancel.
    CHECK(code_of(respond(f, "bob", plain, RequestVerb::decline)) == "usage");
    CHECK(code_of(respond(f, "bob", plain, RequestVerb::ask, "why?")) == "usage");
    CHECK(code_of(cancel(f, "alice", plain)) == "usage");
    // ask needs a question; a reply may not take a notice's type.
    CHECK(code_of(respond(f, "bob", id, RequestVerb::ask, "  ")) == "usage");
    auto disguised = Fixture::reply_request("bob", id, "no");
    disguised.type = "declined";
    CHECK(code_of(f.provider().reply(disguised)) == "usage");
    // Only the sender cancels: not_sender; --to must name a recipient: not_recipient.
    CHECK(code_of(cancel(f, "bob", id)) == "not_sender");
    CHECK(code_of(cancel(f, "alice", id, Mailbox("erin"))) == "not_recipient");
    CHECK(code_of(cancel(f, "alice", "mr-0000000000000000")) == "not_found");
    // None of them stored anything or moved the request.
    CHECK(f.count("alice").total == 0);
    CHECK(f.count("bob").total == 2);
    CHECK(request_state(f, "bob", id) == RequestState::submitted);
  }

  SUBCASE("Request_CancelClosesOpenDeliveriesAndLeavesEndedOnes")
  {
    Fixture f(make, k_people);
    if (!keeps_requests(f)) {
      return;
    }
    const MessageId id = send_request(f, "alice", {"bob", "carol", "dave"}, "index the docs");
    f.reply("bob", id, "done");
    f.read("carol", id);
    f.tick();
    const auto result = MUST(cancel(f, "alice", id, std::nullopt, "no longer needed"));
    CHECK(result.canceled == std::vector<Mailbox>{"carol", "dave"});
    REQUIRE(result.unchanged.size() == 1);
    CHECK(result.unchanged[0].recipient == "bob");
    CHECK(result.unchanged[0].state == RequestState::completed);
    REQUIRE(result.notice.has_value());
    const auto notice = f.get("dave", *result.notice);
    CHECK(notice.type == "canceled");
    CHECK(notice.from == "alice");
    CHECK(notice.to == std::vector<Mailbox>{"carol", "dave"});
    CHECK(notice.reply_to == std::optional<MessageId>(id));
    CHECK(notice.subject == "Canceled: index the docs");
    CHECK(notice.body == "no longer needed");
    CHECK(code_of(f.provider().get("bob", *result.notice)) == "ok");
    CHECK_FALSE(f.get("bob", *result.notice).state.has_value()); // bob's was not closed: no notice
    // Canceled is unread for nobody, as an expired delivery: the inbox, count and the hook drop it;
    // inbox --all and read still show it, marked canceled.
    for (const Mailbox who : {"carol", "dave"}) {
      INFO("recipient ", who);
      CHECK(request_state(f, who, id) == RequestState::canceled);
      CHECK_FALSE(contains(f.inbox_ids(who), id));
      CHECK_FALSE(contains(ids_of(f.check(who, 10).messages), id));
      CHECK(contains(f.inbox_ids(who, true), id));
      CHECK(f.count(who).unread == 1); // the notice
    }
    CHECK(request_state(f, "bob", id) == RequestState::completed);
    // A canceled delivery takes no answer: the verbs are refused; a reply is mail, the state stays.
    CHECK(code_of(respond(f, "dave", id, RequestVerb::decline)) == "conflict");
    f.reply("dave", id, "too late?");
    CHECK(request_state(f, "dave", id) == RequestState::canceled);
    // A second cancel closes nothing and sends nothing.
    const auto again = MUST(cancel(f, "alice", id));
    CHECK(again.canceled.empty());
    CHECK(again.unchanged.size() == 3);
    CHECK_FALSE(again.notice.has_value());
    CHECK(f.count("dave").total == 2); // the request and the notice, nothing more
  }

  SUBCASE("Request_CancelToOneRecipient")
  {
    Fixture f(make, k_people);
    if (!keeps_requests(f)) {
      return;
    }
    const MessageId id = send_request(f, "alice", {"bob", "carol"});
    const auto result = MUST(cancel(f, "alice", id, Mailbox("bob")));
    CHECK(result.canceled == std::vector<Mailbox>{"bob"});
    CHECK(result.unchanged.empty());
    REQUIRE(result.notice.has_value());
    CHECK(f.get("bob", *result.notice).to == std::vector<Mailbox>{"bob"});
    CHECK(request_state(f, "bob", id) == RequestState::canceled);
    CHECK(request_state(f, "carol", id) == RequestState::submitted);
    CHECK(f.inbox_ids("carol") == std::vector<MessageId>{id});
  }

  SUBCASE("Request_AQuestionWaitsForItsAnswer")
  {
    Fixture f(make, k_people);
    if (!keeps_requests(f)) {
      return;
    }
    const MessageId id = send_request(f, "alice", {"bob"}, "release");
    const auto question = MUST(respond(f, "bob", id, RequestVerb::ask, "which branch?"));
    CHECK(question.message.type == "input_required");
    CHECK(question.message.subject == "Question: release");
    CHECK(question.message.body == "which branch?");
    CHECK(question.recipients == std::vector<Mailbox>{"alice"});
    CHECK(request_state(f, "bob", id) == RequestState::input_required);
    // The question itself expects the sender's answer.
    CHECK(request_state(f, "alice", question.message.id) == RequestState::submitted);
    // One question at a time; declining or failing while waiting is allowed.
    CHECK(code_of(respond(f, "bob", id, RequestVerb::ask, "and which tag?")) == "conflict");
    // Any answer to the question takes the request up again: working, and unread for bob.
    f.reply("alice", question.message.id, "main");
    CHECK(request_state(f, "alice", question.message.id) == RequestState::completed);
    CHECK(request_state(f, "bob", id) == RequestState::working);
    CHECK(contains(f.inbox_ids("bob"), id));
    // A second answer moves nothing; the final reply completes it.
    f.reply("alice", question.message.id, "or release/1.2");
    CHECK(request_state(f, "bob", id) == RequestState::working);
    f.reply("bob", id, "released from main");
    CHECK(request_state(f, "bob", id) == RequestState::completed);
  }

  SUBCASE("Request_AWatcherWorksItAndASetAsideFailsItUntilMarkUnread")
  {
    Fixture f(make, k_people);
    if (!keeps_requests(f) || !f.facets().claims) {
      return;
    }
    const MessageId id = send_request(f, "alice", {"bob"});
    mail::ClaimRequest request;
    request.mailbox = "bob";
    request.lease_ms = 60 * mail::k_second_ms;
    request.watcher = "w1";
    request.max_attempts = 1;
    const auto claimed = MUST(reach(f.provider()).claim_next(request)).claim;
    REQUIRE(claimed.has_value());
    CHECK(request_state(f, "bob", id) == RequestState::working);
    const auto finished =
        MUST(reach(f.provider()).finish_claim(*claimed, mail::ClaimFinish{mail::ClaimOutcome::failed, 0, 1}));
    CHECK(finished.set_aside);
    CHECK(request_state(f, "bob", id) == RequestState::failed);
    MUST(f.change("bob", id, Change::mark_unread));
    CHECK(request_state(f, "bob", id) == RequestState::submitted);
    // A request that waits for input is not claimed; its answer makes it claimable again.
    const auto asked = MUST(respond(f, "bob", id, RequestVerb::ask, "which one?"));
    MUST(f.change("bob", id, Change::mark_unread));
    CHECK_FALSE(MUST(reach(f.provider()).claim_next(request)).claim.has_value());
    f.reply("alice", asked.message.id, "the first");
    const auto again = MUST(reach(f.provider()).claim_next(request)).claim;
    REQUIRE(again.has_value());
    CHECK(again->message.id == id);
  }

  SUBCASE("Request_EachMoveIsARequestStateEvent")
  {
    Fixture f(make, k_people);
    if (!keeps_requests(f) || !f.facets().events) {
      return;
    }
    const MessageId id = send_request(f, "alice", {"bob", "carol"});
    const std::int64_t before = MUST(reach(f.provider()).events(0, 1000)).newest;
    MUST(respond(f, "bob", id, RequestVerb::decline));
    MUST(cancel(f, "alice", id));
    std::vector<std::pair<Mailbox, Mailbox>> moved; // (whose delivery, who moved it)
    for (const mail::Event& e : MUST(reach(f.provider()).events(before, 1000)).events) {
      if (e.type == mail::EventType::request_state) {
        CHECK(e.message_id == id);
        moved.emplace_back(e.mailbox, e.actor);
      }
    }
    CHECK(moved == std::vector<std::pair<Mailbox, Mailbox>>{{"bob", "bob"}, {"carol", "alice"}});
  }
}

} // namespace mailroom::testing::contract
