// The exec provider's rules from the contract's "Gas City, both ways": a configured registry
// checks recipients before the script runs, delete runs the script's delete (archive only when it
// has none, remembered), reply is get and reply, a sender's read marks nothing, a thread id is one
// run, and [compat] gc's get and the operation's get are one run.

#include <fstream>
#include <sstream>

#include <doctest/doctest.h>

#include "exec/exec_provider.hpp"
#include "exec/exec_test_support.hpp"

namespace mailroom::providers::exec {

namespace {

using testing::accept;
using testing::as;
using testing::inbox;
using testing::StateDir;

std::string calls()
{
  std::ifstream in(std::string(std::getenv("MAILROOM_EXEC_STATE")) + "/calls");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void forget_calls()
{
  std::ofstream(std::string(std::getenv("MAILROOM_EXEC_STATE")) + "/calls", std::ios::trunc);
}

std::unique_ptr<mail::Provider> open_logged(const mail::MailPolicy& policy = {}, RegistryLoader registry = {})
{
  mail::ExecSettings settings;
  settings.command = testing::script_path("logged.sh");
  ExecOptions options;
  options.facts_file = testing::facts_file();
  options.registry = std::move(registry);
  auto provider = open_exec_provider(settings, policy, "tester", options);
  REQUIRE(provider.ok());
  return std::move(provider).value();
}

mail::SendRequest make_send(const std::string& from, const std::string& to)
{
  mail::SendRequest request;
  request.from = from;
  request.to = {to};
  request.subject = "s";
  request.body = "b";
  return request;
}

// The ops of the calls since forget_calls(), without ensure-running: "get gc-1\ndelete gc-1\n".
std::string ops()
{
  std::istringstream lines(calls());
  std::string line;
  std::string out;
  while (std::getline(lines, line)) {
    if (line != "ensure-running") {
      out += line + "\n";
    }
  }
  return out;
}

} // namespace

TEST_SUITE("mailroom::providers::exec::gc rules")
{
  TEST_CASE("a configured registry refuses an unknown recipient before the script runs")
  {
    StateDir state;
    mail::MailPolicy agents;
    agents.config_agents = {"bob"};
    auto provider = open_logged(agents);
    forget_calls();
    auto refused = provider->send(make_send("alice", "nobody"));
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().code == ErrorCode::unknown_recipient);
    CHECK(ops().empty());
    CHECK(provider->send(make_send("alice", "bob")).ok());

    // Registered mailboxes of a store the configuration names.
    auto from_store = open_logged({}, []() -> Result<std::optional<mail::Directory>> {
      return std::optional<mail::Directory>(mail::Directory{{"carol"}, {"dave"}});
    });
    CHECK(from_store->send(make_send("alice", "carol")).ok());
    CHECK(from_store->send(make_send("alice", "nobody")).error().code == ErrorCode::unknown_recipient);
    CHECK(from_store->send(make_send("alice", "dave")).error().code == ErrorCode::unknown_recipient);

    // Neither: shape only, as gc outside a city.
    auto open = open_logged();
    CHECK(open->send(make_send("alice", "nobody")).ok());
  }

  TEST_CASE("delete runs the script's delete; a script without one gets archive, said and remembered")
  {
    StateDir state;
    auto provider = open_logged();
    const auto sent = provider->send(make_send("alice", "bob"));
    REQUIRE(sent.ok());
    const std::string id = sent->message.id;
    forget_calls();
    CHECK(provider->change(as("bob"), id, mail::Change::remove).value() == mail::ChangeOutcome::changed);
    CHECK(ops() == "get " + id + "\ndelete " + id + "\n");
    CHECK(inbox(*provider, "bob")->empty());

    ::setenv("MAILROOM_TEST_NO_DELETE", "1", 1);
    auto second = provider->send(make_send("alice", "bob"));
    REQUIRE(second.ok());
    forget_calls();
    CHECK(provider->change(as("bob"), second->message.id, mail::Change::remove).value() ==
          mail::ChangeOutcome::archived_instead);
    CHECK(ops() == "get " + second->message.id + "\ndelete " + second->message.id + "\narchive " +
                       second->message.id + "\n");
    CHECK(inbox(*provider, "bob")->empty());
    // Learned: the next command goes straight to archive.
    auto third = provider->send(make_send("alice", "bob"));
    REQUIRE(third.ok());
    auto again = open_logged();
    forget_calls();
    CHECK(again->change(as("bob"), third->message.id, mail::Change::remove).value() ==
          mail::ChangeOutcome::archived_instead);
    CHECK(ops() == "get " + third->message.id + "\narchive " + third->message.id + "\n");
    CHECK(again->change(as("bob"), third->message.id, mail::Change::remove).value() ==
          mail::ChangeOutcome::already);
    ::unsetenv("MAILROOM_TEST_NO_DELETE");
  }

  TEST_CASE("reply is get and reply; a sender's read is get alone and marks nothing")
  {
    StateDir state;
    auto provider = open_logged();
    const auto sent = provider->send(make_send("alice", "bob"));
    REQUIRE(sent.ok());
    const std::string id = sent->message.id;
    forget_calls();
    mail::ReplyRequest answer;
    answer.from = "bob";
    answer.id = id;
    answer.body = "back";
    REQUIRE(provider->reply(answer).ok());
    CHECK(ops().starts_with("get " + id + "\nreply " + id + "\n"));
    forget_calls();
    const auto seen = provider->read(as("alice"), id, accept);
    REQUIRE(seen.ok());
    CHECK(seen->from == "alice");
    CHECK(ops() == "get " + id + "\n");
    CHECK(inbox(*provider, "bob")->size() == 1);
    // A stranger is still refused.
    CHECK(provider->read(as("carol"), id, accept).error().code == ErrorCode::not_recipient);
  }

  TEST_CASE("a thread id is one run; an unknown thread is not_found; a repeated get is one run")
  {
    StateDir state;
    auto provider = open_logged();
    const auto sent = provider->send(make_send("alice", "bob"));
    REQUIRE(sent.ok());
    forget_calls();
    const auto thread = provider->thread("bob", sent->message.thread_id);
    REQUIRE(thread.ok());
    CHECK(thread->messages.size() == 1);
    CHECK(ops() == "thread " + sent->message.thread_id + "\n");
    CHECK(provider->thread("bob", "thread-000000000bad").error().code == ErrorCode::not_found);
    forget_calls();
    const auto by_message = provider->thread("bob", sent->message.id);
    REQUIRE(by_message.ok());
    CHECK(by_message->thread_id == sent->message.thread_id);
    CHECK(ops() == "get " + sent->message.id + "\nthread " + sent->message.thread_id + "\n");
    CHECK(provider->thread("bob", "gc-999").error().code == ErrorCode::not_found);

    forget_calls();
    REQUIRE(provider->get("bob", sent->message.id).ok());
    REQUIRE(provider->read(as("bob"), sent->message.id, accept).ok());
    CHECK(ops() == "get " + sent->message.id + "\nmark-read " + sent->message.id + "\n");
  }
}

} // namespace mailroom::providers::exec
