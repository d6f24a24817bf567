// mailroom's contract cases about request/response between agents (contract "Message types and
// reply expectations", "Traces", "Expiry", "Waiting"): reply types and tracking, trace
// propagation, what wait finds and how it wakes. watch's claims are in provider_contract_claims.cpp.

#include <string>

#include <unistd.h>

#include "mail/claims.hpp"
#include "mail/ids.hpp"
#include "mail/waiting.hpp"
#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

namespace {

using Clock = std::chrono::steady_clock;

const std::vector<Mailbox> k_people = {"alice", "bob", "carol"};

mail::WaitQuery waiting_for(const Mailbox& mailbox)
{
  mail::WaitQuery query;
  query.mailbox = mailbox;
  return query;
}

std::optional<MessageId> found_id(Fixture& f, const mail::WaitQuery& query)
{
  const auto found = MUST(mail::find_waiting(f.provider(), query));
  return found ? std::optional<MessageId>(found->id) : std::nullopt;
}

// A pipe whose read end is readable: an interrupt already pending.
struct PendingInterrupt {
  int fds[2] = {-1, -1};
  PendingInterrupt()
  {
    REQUIRE(::pipe(fds) == 0);
    REQUIRE(::write(fds[1], "x", 1) == 1);
  }
  PendingInterrupt(const PendingInterrupt&) = delete;
  PendingInterrupt& operator=(const PendingInterrupt&) = delete;
  ~PendingInterrupt()
  {
    ::close(fds[0]);
    ::close(fds[1]);
  }
};

void run_type_cases(const ProviderMaker& make)
{
  SUBCASE("Types_RepliesDefaultToTheirTypesResponse")
  {
    Fixture f(make, k_people);
    if (!f.facets().whole_sends) {
      CHECK(code_of(f.provider().send(f.typed_request("alice", "bob", "task_request"))) == "unsupported");
      return;
    }
    const struct {
      const char* type;
      const char* reply_type;
      bool tracked;
    } k_table[] = {
        {"message", "message", false},       {"task_request", "task_response", true},
        {"task_response", "message", false}, {"cron_task", "cron_result", true},
        {"cron_result", "message", false},   {"notification", "message", false},
        {"escalation", "message", false},
    };
    for (const auto& row : k_table) {
      INFO("type ", row.type);
      const auto sent = f.send(f.typed_request("alice", "bob", row.type)).message;
      CHECK(sent.type == row.type);
      CHECK(state_of(f.get("bob", sent.id)).ack_state ==
            (row.tracked ? AckState::awaiting_ack : AckState::none));
      f.tick();
      const auto replied = f.reply("bob", sent.id, "answer").message;
      CHECK(replied.type == row.reply_type);
      CHECK(replied.reply_to == std::optional<MessageId>(sent.id));
      CHECK(state_of(f.get("bob", sent.id)).ack_state == AckState::acked);
      CHECK(state_of(f.get("alice", replied.id)).ack_state == AckState::none);
    }
    // An explicit type wins over the default.
    const auto sent = f.send(f.typed_request("alice", "bob", "task_request")).message;
    auto request = Fixture::reply_request("bob", sent.id, "fyi");
    request.type = "notification";
    CHECK(MUST(f.provider().reply(request)).message.type == "notification");
  }

  SUBCASE("Types_ConfiguredCustomAndTypos")
  {
    mail::MailPolicy policy;
    policy.types = mail::TypeRegistry({{"review_request", true}});
    Fixture f(make, k_people, policy);
    if (!f.facets().whole_sends) {
      return;
    }
    const auto review = f.send(f.typed_request("alice", "bob", "review_request")).message;
    CHECK(state_of(f.get("bob", review.id)).ack_state == AckState::awaiting_ack);
    CHECK(f.reply("bob", review.id, "lgtm").message.type == "message");
    // Unknown but not close to a known name: a custom type that expects no reply.
    const auto note = f.send(f.typed_request("alice", "bob", "deploy_note")).message;
    CHECK(note.type == "deploy_note");
    CHECK(state_of(f.get("bob", note.id)).ack_state == AckState::none);
    // Close to a known name: a typo, refused with a did-you-mean, nothing stored.
    const auto typo = f.provider().send(f.typed_request("alice", "bob", "task_reqest"));
    REQUIRE(code_of(typo) == "usage");
    CHECK(typo.error().hint.find("task_request") != std::string::npos);
    CHECK(f.count("bob").total == 2);
  }
}

void run_trace_cases(const ProviderMaker& make)
{
  SUBCASE("Trace_ChildrenJoinTheirParentsTrace")
  {
    Fixture f(make, k_people);
    if (!f.facets().views) {
      return;
    }
    const auto root = f.send("alice", "bob", "plan").message;
    CHECK(root.trace.trace_id.size() == 32);
    CHECK(root.trace.span_id.size() == 16);
    CHECK_FALSE(root.trace.parent_span_id.has_value());
    CHECK(mail::parse_traceparent(mail::format_traceparent(root.trace)).has_value());
    f.tick();
    // Work bob starts for it (TRACEPARENT in his environment) continues the trace.
    auto request = f.request("bob", {"carol"}, "sub-task", "x");
    request.parent = mail::TraceParent{root.trace.trace_id, root.trace.span_id, "01"};
    const auto child = f.send(request).message;
    CHECK(child.trace.trace_id == root.trace.trace_id);
    CHECK(child.trace.parent_span_id == std::optional<std::string>(root.trace.span_id));
    CHECK(child.trace.span_id != root.trace.span_id);
    CHECK(child.thread_id != root.thread_id); // a trace is not a thread
    f.tick();
    const auto answer = f.reply("carol", child.id, "done").message;
    CHECK(answer.trace.parent_span_id == std::optional<std::string>(child.trace.span_id));
    f.tick();
    const auto unrelated = f.send("alice", "bob", "other").message;
    CHECK(unrelated.trace.trace_id != root.trace.trace_id);

    const auto trace = MUST(reach(f.provider()).trace("bob", answer.id));
    CHECK(trace.trace_id == root.trace.trace_id);
    CHECK(ids_of(trace.messages) == std::vector<MessageId>{root.id, child.id, answer.id});
    CHECK(trace.messages[0].state.has_value());       // bob received the root
    CHECK_FALSE(trace.messages[1].state.has_value()); // but not the sub-task
    CHECK(code_of(reach(f.provider()).trace("bob", std::string(32, 'f'))) == "not_found");
  }
}

void run_wait_cases(const ProviderMaker& make)
{
  SUBCASE("Wait_FindsWhatIsAlreadyThereInInboxOrder")
  {
    Fixture f(make, k_people);
    auto& p = f.provider();
    CHECK_FALSE(found_id(f, waiting_for("bob")).has_value());
    // Nothing there and a deadline already past: timed out at once, having looked once.
    auto none = MUST(mail::wait_for(p, waiting_for("bob"), Clock::now(), -1));
    CHECK(none.end == mail::WaitEnd::timed_out);

    const auto first = f.send("alice", "bob", "first").message;
    f.tick();
    const auto second = f.send("carol", "bob", "second").message;
    auto found = MUST(mail::wait_for(p, waiting_for("bob"), Clock::now(), -1));
    REQUIRE(found.end == mail::WaitEnd::found);
    CHECK(found.message->id == first.id);
    CHECK(found.message->body == "body");
    // Wait changes nothing: the same message again until something reads it.
    CHECK(found_id(f, waiting_for("bob")) == std::optional<MessageId>(first.id));
    auto from_carol = waiting_for("bob");
    from_carol.from = "carol";
    CHECK(found_id(f, from_carol) == std::optional<MessageId>(second.id));
    auto in_thread = waiting_for("bob");
    in_thread.thread = second.thread_id;
    CHECK(found_id(f, in_thread) == std::optional<MessageId>(second.id));
    f.read("bob", first.id);
    CHECK(found_id(f, waiting_for("bob")) == std::optional<MessageId>(second.id));
    f.read("bob", second.id);
    CHECK_FALSE(found_id(f, waiting_for("bob")).has_value());
    CHECK_FALSE(found_id(f, waiting_for("alice")).has_value());
  }

  SUBCASE("Wait_TypesAndUrgency")
  {
    Fixture f(make, k_people);
    if (!f.facets().whole_sends) {
      return; // types and priorities do not travel through the exec protocol
    }
    const auto chat = f.send("alice", "bob", "chat").message;
    f.tick();
    auto task = f.typed_request("alice", "bob", "task_request", "task");
    const auto task_id = f.send(task).message.id;
    f.tick();
    auto urgent = f.request("carol", {"bob"}, "fire", "now");
    urgent.priority = mail::Priority::urgent;
    const auto urgent_id = f.send(urgent).message.id;
    CHECK(found_id(f, waiting_for("bob")) == std::optional<MessageId>(urgent_id));
    auto tasks = waiting_for("bob");
    tasks.types = {"task_request", "cron_task"};
    CHECK(found_id(f, tasks) == std::optional<MessageId>(task_id));
    tasks.types = {"cron_task"};
    CHECK_FALSE(found_id(f, tasks).has_value());
    (void)chat;
  }

  SUBCASE("Wait_ReplyToMatchesEvenWhenRead")
  {
    Fixture f(make, k_people);
    const auto asked = f.send("alice", "bob", "question").message;
    auto replies = waiting_for("alice");
    replies.reply_to = asked.id;
    CHECK_FALSE(found_id(f, replies).has_value());
    f.tick();
    const auto noise = f.send("carol", "alice", "unrelated").message;
    CHECK_FALSE(found_id(f, replies).has_value());
    f.tick();
    const auto answer = f.reply("bob", asked.id, "answer").message;
    CHECK(found_id(f, replies) == std::optional<MessageId>(answer.id));
    f.read("alice", answer.id);
    CHECK(found_id(f, replies) == std::optional<MessageId>(answer.id));
    // bob is not waiting for his own reply; an unknown id is not_found.
    auto bobs = waiting_for("bob");
    bobs.reply_to = asked.id;
    CHECK_FALSE(found_id(f, bobs).has_value());
    bobs.reply_to = "nonexistent";
    CHECK(code_of(mail::find_waiting(f.provider(), bobs)) == "not_found");
    (void)noise;
  }

  SUBCASE("Wait_SkipsExpiredMessages")
  {
    Fixture f(make, k_people);
    if (!f.facets().whole_sends || !f.can_tick()) {
      return;
    }
    auto request = f.request("alice", {"bob"}, "soon stale", "x");
    request.ttl = 10 * mail::k_second_ms;
    const auto sent = f.send(request).message;
    CHECK(found_id(f, waiting_for("bob")) == std::optional<MessageId>(sent.id));
    f.advance(10 * mail::k_second_ms);
    CHECK_FALSE(found_id(f, waiting_for("bob")).has_value());
    if (f.facets().claims) {
      auto next = MUST(reach(f.provider())
                           .claim_next(mail::ClaimRequest{
                               .mailbox = "bob", .lease_ms = 60 * mail::k_second_ms, .watcher = "w1"}));
      CHECK_FALSE(next.claim.has_value());
      CHECK_FALSE(next.wake_in_ms.has_value());
    }
  }

  SUBCASE("Wait_WakesOnTheChangeSignal")
  {
    Fixture f(make, k_people);
    auto& p = f.provider();
    auto signal = MUST(reach(p).change_signal());
    if (!signal) {
      // No signal (a private in-memory store, a script): wait polls instead; an interrupt ends it.
      PendingInterrupt interrupt;
      auto ended = MUST(
          mail::wait_for(p, waiting_for("bob"), std::nullopt, interrupt.fds[0], {.poll_interval_ms = 10}));
      CHECK(ended.end == mail::WaitEnd::interrupted);
      return;
    }
    // Nothing changed: the wait runs to its deadline.
    CHECK(MUST(signal->wait(Clock::now() + std::chrono::milliseconds(20), -1)) == mail::WakeReason::timeout);
    // A commit after arming wakes the next wait at once, long before its deadline.
    f.send("alice", "bob", "wake up");
    const auto before = Clock::now();
    CHECK(MUST(signal->wait(Clock::now() + std::chrono::seconds(10), -1)) == mail::WakeReason::changed);
    CHECK(Clock::now() - before < std::chrono::seconds(2));
    // Read, the change is consumed; an interrupt ends a wait.
    CHECK(MUST(signal->wait(Clock::now() + std::chrono::milliseconds(20), -1)) == mail::WakeReason::timeout);
    PendingInterrupt interrupt;
    CHECK(MUST(signal->wait(Clock::now() + std::chrono::seconds(10), interrupt.fds[0])) ==
          mail::WakeReason::interrupted);
    auto ended = MUST(mail::wait_for(p, waiting_for("carol"), std::nullopt, interrupt.fds[0]));
    CHECK(ended.end == mail::WaitEnd::interrupted);
  }
}

} // namespace

void run_reqresp_cases(const ProviderMaker& make)
{
  run_type_cases(make);
  run_trace_cases(make);
  run_wait_cases(make);
}

} // namespace mailroom::testing::contract
