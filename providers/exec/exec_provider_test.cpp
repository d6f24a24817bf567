#include "exec/exec_provider.hpp"

#include <chrono>

#include <fcntl.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include "exec/exec_test_support.hpp"
#include "exec/script.hpp"
#include "testing/reach.hpp"

namespace mailroom::providers::exec {

namespace {

using testing::accept;
using testing::as;
using testing::inbox;
using testing::open_script;
using testing::StateDir;

mail::SendRequest simple_send(const std::string& to, const std::string& body = "hello world")
{
  mail::SendRequest request;
  request.from = "alice";
  request.to = {to};
  request.subject = "Greetings";
  request.body = body;
  return request;
}

} // namespace

TEST_SUITE("mailroom::providers::exec::ExecProvider")
{
  TEST_CASE("send writes Go's JSON bytes to stdin, the recipient to argv, and parses the Message")
  {
    StateDir state;
    auto provider = open_script("echo_stdin.sh", std::chrono::seconds(20), 1U << 20U, "alice");
    auto receipt = provider->send(simple_send("bob", "hello world <&> \xE2\x80\xA8"));
    REQUIRE(receipt.ok());
    CHECK(state.read("stdin.send") ==
          R"({"from":"alice","subject":"Greetings","body":"hello world \u003c\u0026\u003e \u2028"})");
    CHECK(receipt->message.id == "gc-1");
    CHECK(receipt->message.to == std::vector<std::string>{"bob"});
    CHECK(receipt->message.created_at == 1749983400000); // 2025-06-15T10:30:00Z
    CHECK(receipt->recipients == std::vector<std::string>{"bob"});
    CHECK(state.read("identity") == "alice");
  }

  TEST_CASE("ensure-running runs once, before the first op, and its exit 2 is harmless")
  {
    StateDir state;
    auto provider = open_script("echo_stdin.sh");
    CHECK_FALSE(state.has("calls")); // nothing spawned at open
    REQUIRE(provider->count("bob").ok());
    REQUIRE(inbox(*provider, "bob").ok());
    REQUIRE(provider->get("bob", "gc-1").ok());
    CHECK(state.read("calls") == "ensure-running\ncount bob\ninbox bob\nget gc-1\n");
  }

  TEST_CASE("read is get, then deliver, then mark-read only for an unread recipient whose delivery worked")
  {
    StateDir state;
    auto provider = open_script("echo_stdin.sh");
    const auto ok = [](const mail::Message&) -> Result<void> { return {}; };
    const auto refuse = [](const mail::Message&) -> Result<void> {
      return make_error(ErrorCode::store_error, "output closed");
    };
    auto read = provider->read(as("bob"), "gc-1", ok);
    REQUIRE(read.ok());
    REQUIRE(read->state.has_value());
    CHECK_FALSE(read->state->read); // as it was before marking
    CHECK(state.read("calls") == "ensure-running\nget gc-1\nmark-read gc-1\n");
    CHECK(provider->read(as("bob"), "gc-1", refuse).error().message == "output closed");
    auto own = provider->read(as("alice"), "gc-1", ok); // the sender has nothing to mark
    REQUIRE(own.ok());
    CHECK_FALSE(own->state.has_value()); // and sees no state
    CHECK(provider->read(as("carol"), "gc-1", ok).error().code == ErrorCode::not_recipient);
    // A get of the same id with no other run between is answered from the last one.
    CHECK(state.read("calls") == "ensure-running\nget gc-1\nmark-read gc-1\nget gc-1\n");
  }

  TEST_CASE("reply by a mailbox that neither sent nor received the original is not_recipient")
  {
    StateDir state;
    auto provider = open_script("echo_stdin.sh");
    mail::ReplyRequest reply;
    reply.from = "carol";
    reply.id = "gc-1";
    reply.subject = "me too";
    CHECK(provider->reply(reply).error().code == ErrorCode::not_recipient);
    CHECK(state.read("calls") == "ensure-running\nget gc-1\n");
  }

  TEST_CASE("without get, read falls back to the protocol's read and reply marks nothing")
  {
    StateDir state;
    auto provider = open_script("no_get.sh");
    auto read = provider->read(as("bob"), "gc-1", accept);
    REQUIRE(read.ok());
    CHECK(read->body == "b");
    CHECK(state.read("calls") == "ensure-running\nget gc-1\nread gc-1\n");
    mail::ReplyRequest reply;
    reply.from = "bob";
    reply.id = "gc-1";
    REQUIRE(provider->reply(reply).ok()); // the subject goes out empty, as gc sends it
    // Who received the original is unknown without `get`, so nothing is marked read.
    CHECK(state.read("calls") == "ensure-running\nget gc-1\nread gc-1\nget gc-1\nreply gc-1\n");
  }

  TEST_CASE("lists are sorted urgent first then oldest, with limits; created_at offsets become UTC")
  {
    StateDir state;
    auto provider = open_script("echo_stdin.sh");
    auto unread = inbox(*provider, "bob");
    REQUIRE(unread.ok());
    REQUIRE(unread->size() == 3);
    CHECK((*unread)[0].id == "gc-2"); // urgent
    CHECK((*unread)[1].id == "gc-1"); // 10:30Z
    CHECK((*unread)[2].id == "gc-3"); // 12:30:00.250+02:00 = 10:30:00.250Z
    CHECK((*unread)[2].created_at == 1749983400250);
    CHECK((*unread)[1].cc == std::vector<std::string>{"carol"});

    mail::ListQuery all;
    all.mailbox = "bob";
    all.include_read = true;
    all.limit = 1;
    auto listed = provider->list(all);
    REQUIRE(listed.ok());
    CHECK(listed->messages.size() == 1);
    CHECK(listed->total == 3);
    CHECK(listed->has_more());
    CHECK(state.read("calls").find("all bob\n") != std::string::npos);

    auto check = provider->check("bob", 2, std::nullopt);
    REQUIRE(check.ok());
    CHECK(check->unread == 3);
    CHECK(check->messages.size() == 2);

    auto counts = provider->count("bob");
    REQUIRE(counts.ok());
    CHECK(counts->total == 3);
    CHECK(counts->unread == 1);
  }

  TEST_CASE("the caller's stdin is never read by the script")
  {
    StateDir state;
    std::array<int, 2> fds{};
    REQUIRE(::pipe(fds.data()) == 0);
    REQUIRE(::write(fds[1], "secret\n", 7) == 7);
    ::close(fds[1]);
    const int saved = ::dup(STDIN_FILENO);
    ::dup2(fds[0], STDIN_FILENO);
    ::close(fds[0]);
    auto provider = open_script("echo_stdin.sh");
    const bool ok = inbox(*provider, "bob").ok();
    ::dup2(saved, STDIN_FILENO);
    ::close(saved);
    CHECK(ok);
    CHECK(state.has("stdin.inbox"));
    CHECK(state.read("stdin.inbox").empty());
  }

  TEST_CASE("empty output: none for lists and count, an error for single messages")
  {
    StateDir state;
    auto provider = open_script("empty_success.sh");
    CHECK(inbox(*provider, "bob")->empty());
    CHECK(provider->check("bob", 3, std::nullopt)->unread == 0);
    CHECK(provider->count("bob")->total == 0);
    CHECK(provider->change(as("bob"), "gc-1", mail::Change::archive).value() == mail::ChangeOutcome::changed);
    CHECK(provider->change(as("bob"), "gc-1", mail::Change::mark_read).value() ==
          mail::ChangeOutcome::changed);
    auto got = provider->get("bob", "gc-1");
    REQUIRE_FALSE(got.ok());
    CHECK(got.error().code == ErrorCode::provider_error);
    CHECK(got.error().message == "exec mail provider " + testing::script_path("empty_success.sh") +
                                     " get gc-1: exited 0 without printing a message");
    auto sent = provider->send(simple_send("bob"));
    REQUIRE_FALSE(sent.ok());
    CHECK(sent.error().code == ErrorCode::provider_error);
  }

  TEST_CASE("exit 2 is empty for lists and unsupported for everything else")
  {
    StateDir state;
    auto provider = open_script("exit2_everywhere.sh");
    CHECK(inbox(*provider, "bob")->empty());
    CHECK(provider->count("bob")->unread == 0);
    auto archived = provider->change(as("bob"), "gc-1", mail::Change::archive);
    REQUIRE_FALSE(archived.ok());
    CHECK(archived.error().code == ErrorCode::unsupported);
    CHECK(archived.error().message == "exec mail provider " + testing::script_path("exit2_everywhere.sh") +
                                          " does not support \"archive\"");
    CHECK(provider->change(as("bob"), "gc-1", mail::Change::unarchive).error().code ==
          ErrorCode::unsupported);
    CHECK(provider->send(simple_send("bob")).error().code == ErrorCode::unsupported);
    CHECK(provider->get("bob", "gc-1").error().code == ErrorCode::unsupported);
  }

  TEST_CASE("a stateless script lists nothing and refuses the rest")
  {
    StateDir state;
    auto provider = open_script("stateless.sh");
    CHECK(provider->check("bob", 3, std::nullopt)->unread == 0);
    CHECK(provider->count("bob")->total == 0);
    CHECK(provider->thread("bob", "thread-x").error().code == ErrorCode::not_found);
    CHECK(provider->change(as("bob"), "gc-1", mail::Change::mark_read).error().code ==
          ErrorCode::unsupported);
  }

  TEST_CASE("the not-found marker is not_found for every id op")
  {
    StateDir state;
    auto provider = open_script("not_found.sh");
    CHECK(provider->get("bob", "gc-9").error().code == ErrorCode::not_found);
    CHECK(provider->get("bob", "gc-9").error().message == "message \"gc-9\" not found");
    CHECK(provider->read(as("bob"), "gc-9", accept).error().code == ErrorCode::not_found);
    CHECK(provider->change(as("bob"), "gc-9", mail::Change::archive).error().code == ErrorCode::not_found);
    CHECK(provider->change(as("bob"), "gc-9", mail::Change::mark_unread).error().code ==
          ErrorCode::not_found);
    CHECK(provider->thread("bob", "gc-9").error().code == ErrorCode::not_found);
    mail::ReplyRequest reply;
    reply.from = "bob";
    reply.id = "gc-9";
    reply.subject = "re";
    CHECK(provider->reply(reply).error().code == ErrorCode::not_found);
  }

  TEST_CASE("already archived on stderr is ChangeOutcome::already")
  {
    StateDir state;
    auto provider = open_script("already_archived.sh");
    auto archived = provider->change(as("bob"), "gc-1", mail::Change::archive);
    REQUIRE(archived.ok());
    CHECK(*archived == mail::ChangeOutcome::already);
  }

  TEST_CASE("an argument starting with '-' is refused before anything is spawned")
  {
    StateDir state;
    auto provider = open_script("echo_stdin.sh");
    auto got = provider->get("bob", "-x");
    REQUIRE_FALSE(got.ok());
    CHECK(got.error().code == ErrorCode::usage);
    CHECK(inbox(*provider, "-bob").error().code == ErrorCode::usage);
    // A recipient is shape-checked (mail::check_send) before anything runs.
    CHECK(provider->send(simple_send("--help")).error().code == ErrorCode::invalid_recipient);
    CHECK_FALSE(state.has("calls"));
  }

  TEST_CASE("what the send JSON cannot carry is unsupported, never dropped")
  {
    StateDir state;
    auto provider = open_script("echo_stdin.sh");
    auto two = simple_send("bob");
    two.to.push_back("carol");
    CHECK(provider->send(two).error().code == ErrorCode::unsupported);
    auto cc = simple_send("bob");
    cc.cc = {"carol"};
    CHECK(provider->send(cc).error().code == ErrorCode::unsupported);
    auto urgent = simple_send("bob");
    urgent.priority = mail::Priority::urgent;
    CHECK(provider->send(urgent).error().code == ErrorCode::unsupported);
    auto typed = simple_send("bob");
    typed.type = "task";
    CHECK(provider->send(typed).error().code == ErrorCode::unsupported);
    auto keyed = simple_send("bob");
    keyed.idempotency_key = "k1";
    CHECK(provider->send(keyed).error().code == ErrorCode::unsupported);
    auto tracked = simple_send("bob");
    tracked.ack = true;
    CHECK(provider->send(tracked).error().code == ErrorCode::unsupported);
    auto expiring = simple_send("bob");
    expiring.ttl = 60'000;
    CHECK(provider->send(expiring).error().code == ErrorCode::unsupported);
    auto all = simple_send("@all");
    CHECK(provider->send(all).error().code == ErrorCode::unsupported);
    mail::ReplyRequest reply_all;
    reply_all.from = "bob";
    reply_all.id = "gc-1";
    reply_all.reply_all = true;
    CHECK(provider->reply(reply_all).error().code == ErrorCode::unsupported);
    CHECK_FALSE(state.has("stdin.send"));
    CHECK(mailroom::testing::reach(*provider).agents().error().code == ErrorCode::unsupported);
    CHECK(mailroom::testing::reach(*provider).status("gc-1").error().code == ErrorCode::unsupported);
    CHECK(mailroom::testing::reach(*provider)
              .touch("alice", 0, mail::SeenVia::command)
              .ok()); // presence is a courtesy: nowhere to keep it
    CHECK(provider->change(as("bob"), "gc-1", mail::Change::ack).error().code == ErrorCode::unsupported);
  }

  TEST_CASE(
      "an exit 2 from a list op the capabilities answer leaves out is unsupported; once known, no spawn")
  {
    StateDir state;
    auto provider = open_script("caps_limited.sh");
    CHECK(inbox(*provider, "bob").ok());
    // Exit 2 from check could be "nothing": the capabilities answer says it is not implemented.
    auto checked = provider->check("bob", 3, std::nullopt);
    REQUIRE_FALSE(checked.ok());
    CHECK(checked.error().code == ErrorCode::unsupported);
    CHECK(checked.error().message ==
          "exec mail provider " + testing::script_path("caps_limited.sh") +
              " does not support \"check\" (its capabilities answer leaves it out)");
    // Now known: get and archive are refused without running the script.
    CHECK(provider->change(as("bob"), "gc-1", mail::Change::archive).error().code == ErrorCode::unsupported);
    CHECK(state.read("calls") == "ensure-running\ninbox bob\ncheck bob\ncapabilities\n");
    // And so for the next command: nothing runs, not even ensure-running (it answered exit 2).
    auto next = open_script("caps_limited.sh");
    CHECK(next->check("bob", 3, std::nullopt).error().code == ErrorCode::unsupported);
    CHECK(state.read("calls") == "ensure-running\ninbox bob\ncheck bob\ncapabilities\n");
  }

  TEST_CASE("facets() describes the protocol's limits")
  {
    StateDir state;
    const mail::Facets facets = open_script("stateless.sh")->facets();
    CHECK(facets.registry == nullptr);
    CHECK(facets.unarchive != nullptr);   // nothing known yet: asked of the script
    CHECK(facets.views == nullptr);       // also sent, filters and search
    CHECK(facets.whole_sends == nullptr); // one recipient per send, no idempotency keys
    CHECK(facets.health == nullptr);
    CHECK(facets.claims == nullptr);
    CHECK(facets.transfer == nullptr);
    CHECK(facets.events == nullptr);
    CHECK(facets.signals == nullptr);
  }

  TEST_CASE("facets() follows the script's cached facts: no unarchive facet when it declares nothing or "
            "leaves it out")
  {
    StateDir state;
    const auto learn = [](const std::string& name) {
      mail::ExecSettings settings;
      settings.command = testing::script_path(name);
      Script(settings, "tester", testing::facts_file()).probe();
    };
    learn("stateful.sh"); // its capabilities answer lists unarchive
    CHECK(open_script("stateful.sh")->facets().unarchive != nullptr);
    learn("stateless.sh"); // answers capabilities with exit 2: declares nothing, as gc scripts do
    CHECK(open_script("stateless.sh")->facets().unarchive == nullptr);
    learn("caps_limited.sh"); // a capabilities answer without unarchive
    CHECK(open_script("caps_limited.sh")->facets().unarchive == nullptr);
  }
}

} // namespace mailroom::providers::exec
