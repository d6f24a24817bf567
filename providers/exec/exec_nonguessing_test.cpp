// Issue #17 (gc drop-in): exec never guesses, one process per command, gc's wire subjects, and the
// facts cache. One fixture script per case, each recording its calls.

#include "exec/exec_provider.hpp"

#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>

#include "exec/exec_test_support.hpp"

namespace mailroom::providers::exec {

namespace {

using testing::accept;
using testing::as;
using testing::inbox;
using testing::open_command;
using testing::open_script;
using testing::StateDir;

// How many lines of `calls` are exactly `line`.
int calls_of(const StateDir& state, const std::string& line)
{
  std::istringstream in(state.read("calls"));
  int n = 0;
  for (std::string l; std::getline(in, l);) {
    n += l == line ? 1 : 0;
  }
  return n;
}

} // namespace

TEST_SUITE("mailroom::providers::exec::no guessing")
{
  TEST_CASE("inbox --all without `all`: composed when every open message is unread")
  {
    StateDir state;
    auto provider = open_script("no_all_unread_only.sh");
    mail::ListQuery query;
    query.mailbox = "bob";
    query.include_read = true;
    auto listed = provider->list(query);
    REQUIRE(listed.ok());
    REQUIRE(listed->messages.size() == 1);
    CHECK(listed->messages[0].message.id == "gc-2");
    CHECK(listed->total == 1);
    CHECK(listed->unread == 1);
    CHECK(state.read("calls") == "ensure-running\nall bob\ncount bob\ninbox bob\n");
  }

  TEST_CASE("inbox --all without `all`: unsupported when read mail exists, never the unread list alone")
  {
    StateDir state;
    auto provider = open_script("no_all_read_mail.sh");
    mail::ListQuery query;
    query.mailbox = "bob";
    query.include_read = true;
    auto listed = provider->list(query);
    REQUIRE_FALSE(listed.ok());
    CHECK(listed.error().code == ErrorCode::unsupported);
    CHECK(listed.error().message ==
          "exec mail provider " + testing::script_path("no_all_read_mail.sh") +
              " does not support \"all\" (1 of the 2 open messages for bob are read, and only \"all\" lists "
              "read mail; \"inbox\" lists the unread ones)");
    CHECK(inbox(*provider, "bob")->size() == 1); // plain inbox still works
  }

  TEST_CASE("an `all` without read flags learns them from inbox, never calls them unread")
  {
    StateDir state;
    auto provider = open_script("all_without_read.sh");
    mail::ListQuery query;
    query.mailbox = "bob";
    query.include_read = true;
    auto listed = provider->list(query);
    REQUIRE(listed.ok());
    REQUIRE(listed->messages.size() == 2);
    CHECK(listed->messages[0].message.id == "gc-1");
    CHECK(listed->messages[0].message.state->read);
    CHECK_FALSE(listed->messages[1].message.state->read);
    CHECK(listed->unread == 1);
    CHECK(state.read("calls") == "ensure-running\nall bob\ninbox bob\n");
  }

  TEST_CASE("a stateless script's inbox --all is empty only because count and inbox say so")
  {
    StateDir state;
    auto provider = open_script("exit2_logged.sh");
    CHECK(inbox(*provider, "bob", true)->empty());
    CHECK(calls_of(state, "all bob") == 1);
    CHECK(calls_of(state, "count bob") == 1);
    CHECK(calls_of(state, "inbox bob") == 1);
  }

  TEST_CASE("a get without `read` leaves state unknown: every change and read's mark reach the script")
  {
    StateDir state;
    auto provider = open_script("get_without_read.sh");
    auto got = provider->get("bob", "gc-1");
    REQUIRE(got.ok());
    CHECK_FALSE(got->state.has_value()); // unknown, not "unread"
    CHECK(provider->change(as("bob"), "gc-1", mail::Change::mark_unread).value() ==
          mail::ChangeOutcome::changed);
    CHECK(provider->change(as("bob"), "gc-1", mail::Change::mark_read).value() ==
          mail::ChangeOutcome::changed);
    CHECK(provider->change(as("bob"), "gc-1", mail::Change::archive).value() == mail::ChangeOutcome::changed);
    REQUIRE(provider->read(as("bob"), "gc-2", accept).ok());
    // The change's own get is the one just made (no run between); every change forgets it.
    CHECK(state.read("calls") == "ensure-running\nget gc-1\nmark-unread gc-1\nget gc-1\nmark-read "
                                 "gc-1\nget gc-1\narchive gc-1\n"
                                 "get gc-2\nmark-read gc-2\n");
    // unarchive is not a gc op: exit 2 is unsupported, never "already unarchived".
    CHECK(provider->change(as("bob"), "gc-1", mail::Change::unarchive).error().code ==
          ErrorCode::unsupported);
  }

  TEST_CASE("send and reply put the subject on the wire as gc does: empty when none was given")
  {
    StateDir state;
    auto provider = open_script("echo_stdin.sh");
    mail::SendRequest send;
    send.from = "alice";
    send.to = {"bob"};
    send.body = "first line\nsecond";
    REQUIRE(provider->send(send).ok());
    CHECK(state.read("stdin.send") == R"({"from":"alice","subject":"","body":"first line\nsecond"})");
    mail::ReplyRequest reply;
    reply.from = "bob";
    reply.id = "gc-1";
    reply.body = "ok";
    REQUIRE(provider->reply(reply).ok());
    CHECK(state.read("stdin.reply") == R"({"from":"bob","subject":"","body":"ok"})");
    reply.subject = "Re: Greetings";
    REQUIRE(provider->reply(reply).ok());
    CHECK(state.read("stdin.reply") == R"({"from":"bob","subject":"Re: Greetings","body":"ok"})");
  }
}

TEST_SUITE("mailroom::providers::exec::one process per command")
{
  TEST_CASE("count, check, inbox and read never probe capabilities; a known ensure-running exit 2 is skipped")
  {
    StateDir state;
    {
      auto first = open_script("echo_stdin.sh");
      REQUIRE(first->count("bob").ok());
    }
    CHECK(state.read("calls") == "ensure-running\ncount bob\n");
    // Each later command is one process: the op itself.
    REQUIRE(open_script("echo_stdin.sh")->count("bob").ok());
    REQUIRE(open_script("echo_stdin.sh")->check("bob", 3, std::nullopt).ok());
    REQUIRE(inbox(*open_script("echo_stdin.sh"), "bob").ok());
    CHECK(state.read("calls") == "ensure-running\ncount bob\ncount bob\ncheck bob\ninbox bob\n");
    // read is get, then mark-read for an unread recipient: no probe either.
    REQUIRE(open_script("echo_stdin.sh")->read(as("bob"), "gc-1", accept).ok());
    CHECK(calls_of(state, "capabilities") == 0);
    CHECK(calls_of(state, "ensure-running") == 1);
  }

  TEST_CASE("an ensure-running that succeeds runs once per command, as under gc")
  {
    StateDir state;
    REQUIRE(open_script("ensure_running_ok.sh")->count("bob").ok());
    REQUIRE(open_script("ensure_running_ok.sh")->count("bob").ok());
    CHECK(state.read("calls") == "ensure-running\ncount bob\nensure-running\ncount bob\n");
  }

  TEST_CASE("an ambiguous exit 2 probes capabilities once; the answer is cached")
  {
    StateDir state;
    CHECK(open_script("exit2_logged.sh")->count("bob")->total == 0);
    CHECK(state.read("calls") == "ensure-running\ncount bob\ncapabilities\n");
    CHECK(open_script("exit2_logged.sh")->count("bob")->total == 0);
    CHECK(inbox(*open_script("exit2_logged.sh"), "bob")->empty());
    CHECK(state.read("calls") == "ensure-running\ncount bob\ncapabilities\ncount bob\ninbox bob\n");
    CHECK(state.has("exec-facts.json"));
  }

  TEST_CASE("changing the script forgets what was learned about it")
  {
    StateDir state;
    const std::string copy = state.path() + "/mail-script";
    std::filesystem::copy_file(testing::script_path("exit2_logged.sh"), copy);
    CHECK(open_command(copy)->count("bob")->total == 0);
    CHECK(open_command(copy)->count("bob")->total == 0);
    CHECK(state.read("calls") == "ensure-running\ncount bob\ncapabilities\ncount bob\n");
    std::ofstream(copy, std::ios::app) << "# edited\n";
    CHECK(open_command(copy)->count("bob")->total == 0);
    CHECK(state.read("calls") ==
          "ensure-running\ncount bob\ncapabilities\ncount bob\nensure-running\ncount bob\ncapabilities\n");
  }

  TEST_CASE("a cache that cannot be written costs a probe per command and nothing else")
  {
    StateDir state;
    // The cache's directory is a file: nothing can be stored under it.
    std::ofstream(state.path() + "/exec-facts.json") << "not json";
    const std::string bad = state.path() + "/exec-facts.json/cache.json";
    mail::ExecSettings settings;
    settings.command = testing::script_path("exit2_logged.sh");
    ExecOptions options;
    options.facts_file = bad;
    for (int i = 0; i < 2; ++i) {
      auto provider = open_exec_provider(settings, {}, "tester", options);
      REQUIRE(provider.ok());
      CHECK((*provider)->count("bob")->total == 0);
    }
    CHECK(state.read("calls") ==
          "ensure-running\ncount bob\ncapabilities\nensure-running\ncount bob\ncapabilities\n");
  }
}

} // namespace mailroom::providers::exec
