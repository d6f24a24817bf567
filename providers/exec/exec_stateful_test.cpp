#include "exec/exec_provider.hpp"

#include <chrono>

#include <doctest/doctest.h>

#include "exec/exec_test_support.hpp"

namespace mailroom::providers::exec {

namespace {

using testing::accept;
using testing::as;
using testing::inbox;
using testing::open_script;
using testing::StateDir;

mail::SendRequest make_send(const std::string& from, const std::string& to, const std::string& subject,
                            const std::string& body)
{
  mail::SendRequest request;
  request.from = from;
  request.to = {to};
  request.subject = subject;
  request.body = body;
  return request;
}

Result<mail::ChangeOutcome> change(mail::Provider& provider, const std::string& mailbox,
                                   const std::string& id, mail::Change what)
{
  return provider.change(as(mailbox), id, what);
}

} // namespace

TEST_SUITE("mailroom::providers::exec::stateful.sh")
{
  TEST_CASE("send, inbox, read, reply, thread, count and archive against the reference script")
  {
    StateDir state;
    auto provider = open_script("stateful.sh");

    CHECK(inbox(*provider, "bob")->empty());
    auto sent = provider->send(make_send("alice", "bob", "Greetings", "hello `$(x)` \"world\""));
    REQUIRE(sent.ok());
    const mail::Message& original = sent->message;
    CHECK_FALSE(original.id.empty());
    CHECK(original.from == "alice");
    CHECK(original.to == std::vector<std::string>{"bob"});
    CHECK(original.body == "hello `$(x)` \"world\"");
    const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
    CHECK(original.created_at > now - 60000);
    CHECK(original.created_at < now + 60000);

    auto unread = inbox(*provider, "bob");
    REQUIRE(unread.ok());
    REQUIRE(unread->size() == 1);
    CHECK((*unread)[0].id == original.id);
    CHECK(inbox(*provider, "charlie")->empty());
    CHECK(provider->check("bob", 3, std::nullopt)->unread == 1);
    CHECK(inbox(*provider, "bob")->size() == 1); // check never marks read

    // A failed delivery leaves the message unread.
    const auto refuse = [](const mail::Message&) -> Result<void> {
      return make_error(ErrorCode::provider_error, "terminal went away");
    };
    CHECK(provider->read(as("bob"), original.id, refuse).error().message == "terminal went away");
    CHECK(inbox(*provider, "bob")->size() == 1);

    std::string delivered;
    auto read = provider->read(as("bob"), original.id, [&](const mail::Message& m) -> Result<void> {
      delivered = m.body;
      return {};
    });
    REQUIRE(read.ok());
    CHECK(delivered == original.body);
    CHECK(inbox(*provider, "bob")->empty());
    CHECK(provider->get("bob", original.id)->body == original.body);
    // Views are open: a stranger sees the message, without state.
    auto stranger = provider->get("carol", original.id);
    REQUIRE(stranger.ok());
    CHECK_FALSE(stranger->state.has_value());

    mail::ReplyRequest reply_request;
    reply_request.from = "bob";
    reply_request.id = original.id;
    reply_request.body = "hi back";
    auto reply = provider->reply(reply_request);
    REQUIRE(reply.ok());
    CHECK(reply->message.to == std::vector<std::string>{"alice"});
    CHECK(reply->message.from == "bob");
    CHECK(reply->message.subject.empty()); // gc's wire: a reply without -s has no subject
    CHECK(reply->message.thread_id == original.thread_id);
    CHECK(reply->message.reply_to == original.id);

    for (const std::string& id : {original.thread_id, original.id, reply->message.id}) {
      auto thread = provider->thread("alice", id);
      REQUIRE(thread.ok());
      CHECK(thread->thread_id == original.thread_id);
      REQUIRE(thread->messages.size() == 2);
      CHECK(thread->messages[0].id == original.id);
      CHECK(thread->messages[1].id == reply->message.id);
    }
    CHECK(provider->thread("alice", "thread-000000000000").error().code == ErrorCode::not_found);

    CHECK(provider->send(make_send("carol", "bob", "two", "second")).ok());
    auto counts = provider->count("bob");
    REQUIRE(counts.ok());
    CHECK(counts->total == 2);
    CHECK(counts->unread == 1);

    // The sender has no delivery record to archive; the recipient's copy is untouched.
    CHECK(change(*provider, "alice", original.id, mail::Change::archive).error().code ==
          ErrorCode::not_recipient);
    CHECK(change(*provider, "bob", original.id, mail::Change::archive).value() ==
          mail::ChangeOutcome::changed);
    CHECK(change(*provider, "bob", original.id, mail::Change::archive).value() ==
          mail::ChangeOutcome::already);
    CHECK(provider->count("bob")->total == 1);
    CHECK(change(*provider, "bob", original.id, mail::Change::unarchive).value() ==
          mail::ChangeOutcome::changed);
    CHECK(provider->count("bob")->total == 2);
    CHECK(inbox(*provider, "bob", true)->size() == 2);
  }

  TEST_CASE(
      "replying leaves the original as it was (gc's one run); a reply to one's own message is unsupported")
  {
    StateDir state;
    auto provider = open_script("stateful.sh");
    auto sent = provider->send(make_send("alice", "bob", "Question", "?"));
    REQUIRE(sent.ok());
    mail::ReplyRequest own;
    own.from = "alice";
    own.id = sent->message.id;
    own.body = "and also";
    CHECK(provider->reply(own).error().code == ErrorCode::unsupported);
    CHECK(inbox(*provider, "alice")->empty());
    mail::ReplyRequest answer = own;
    answer.from = "bob";
    answer.body = "answer";
    REQUIRE(provider->reply(answer).ok());
    CHECK(inbox(*provider, "bob")->size() == 1);
    CHECK_FALSE(provider->get("bob", sent->message.id)->state->read);
    CHECK(provider->count("alice")->unread == 1);
  }

  TEST_CASE("mark-read, mark-unread and mark_all_read move messages in and out of the inbox")
  {
    StateDir state;
    auto provider = open_script("stateful.sh");
    auto first = provider->send(make_send("alice", "bob", "one", "1"));
    auto second = provider->send(make_send("alice", "bob", "two", "2"));
    REQUIRE(first.ok());
    REQUIRE(second.ok());
    const std::string id = first->message.id;
    // Every change runs the script's operation; `already` comes from what the script reported
    // (get's read flag, or "already archived").
    CHECK(change(*provider, "bob", id, mail::Change::mark_read).value() == mail::ChangeOutcome::changed);
    CHECK(change(*provider, "bob", id, mail::Change::mark_read).value() == mail::ChangeOutcome::already);
    CHECK(inbox(*provider, "bob")->size() == 1);
    CHECK(change(*provider, "bob", id, mail::Change::mark_unread).value() == mail::ChangeOutcome::changed);
    CHECK(change(*provider, "bob", id, mail::Change::mark_unread).value() == mail::ChangeOutcome::already);
    CHECK(inbox(*provider, "bob")->size() == 2);
    auto changed = provider->mark_all_read("bob");
    REQUIRE(changed.ok());
    CHECK(*changed == std::vector<std::string>{first->message.id, second->message.id});
    CHECK(provider->count("bob")->unread == 0);
  }

  TEST_CASE("unknown ids are not_found and odd ids never become paths")
  {
    StateDir state;
    auto provider = open_script("stateful.sh");
    CHECK(provider->get("bob", "nonexistent").error().code == ErrorCode::not_found);
    CHECK(provider->read(as("bob"), "nonexistent", accept).error().code == ErrorCode::not_found);
    CHECK(change(*provider, "bob", "nonexistent", mail::Change::archive).error().code ==
          ErrorCode::not_found);
    CHECK(provider->get("bob", "../../etc/passwd").error().code == ErrorCode::not_found);
    CHECK(provider->get("bob", "-rf").error().code == ErrorCode::usage);
  }
}

} // namespace mailroom::providers::exec
