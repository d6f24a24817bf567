#include "mail/claims.hpp"

#include <doctest/doctest.h>

namespace mailroom::mail {

TEST_SUITE("mailroom::mail::claims")
{
  TEST_CASE("a failed handler waits 1 s, 2 s, 4 s … at most 5 minutes")
  {
    CHECK(handler_retry_after(1) == 1000);
    CHECK(handler_retry_after(2) == 2000);
    CHECK(handler_retry_after(3) == 4000);
    CHECK(handler_retry_after(9) == 256000);
    CHECK(handler_retry_after(10) == 5 * 60 * 1000);
    CHECK(handler_retry_after(1000) == 5 * 60 * 1000);
  }

  TEST_CASE("the reply is the handler's output without its trailing newlines")
  {
    CHECK(watch_reply_body("ok\n") == "ok");
    CHECK(watch_reply_body("two\nlines\r\n\n") == "two\nlines");
    CHECK(watch_reply_body("\n\n").empty());
    CHECK(watch_reply_body("  kept  ") == "  kept  ");
  }

  TEST_CASE("the escalation goes from mailroom to escalate_to and continues the trace")
  {
    Message message;
    message.id = "mr-1";
    message.from = "alice";
    message.type = "task_request";
    message.subject = "build";
    message.trace = Trace{"4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", std::nullopt};
    RedeliverySchedule redelivery;
    CHECK(watch_escalation_recipient(message, redelivery) == std::optional<Mailbox>("alice"));
    const std::vector<std::string> argv = {"./handle.sh", "--fast"};
    const SendRequest one = watch_escalation({{message, 3, "exit status 1: boom"}}, "bob", argv, "alice");
    CHECK(one.from == "mailroom");
    CHECK(one.to == std::vector<std::string>{"alice"});
    CHECK(one.type == "escalation");
    CHECK(one.priority == Priority::urgent);
    CHECK(one.subject == std::optional<std::string>("watch gave up on mr-1 for bob after 3 attempts"));
    CHECK(one.body.find("exit status 1: boom") != std::string::npos);
    CHECK(one.body.find("mailroom mark-unread --for bob ID") != std::string::npos);
    REQUIRE(one.parent.has_value());
    CHECK(one.parent->span_id == "00f067aa0ba902b7");
    redelivery.escalate_to = "ops";
    CHECK(watch_escalation_recipient(message, redelivery) == std::optional<Mailbox>("ops"));
    message.from = "mailroom";
    CHECK_FALSE(watch_escalation_recipient(message, redelivery).has_value());
  }

  TEST_CASE("one escalation names several set-aside deliveries, and its first line is the pair's")
  {
    std::vector<SetAside> several;
    for (int i = 1; i <= 7; ++i) {
      Message m;
      m.id = "mr-" + std::to_string(i);
      m.from = "alice";
      m.subject = "job " + std::to_string(i);
      m.trace =
          Trace{"4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba9020" + std::to_string(i), std::nullopt};
      several.push_back({m, 2, "exit " + std::to_string(i)});
    }
    const std::vector<std::string> argv = {"./handle.sh"};
    Message sent;
    const SendRequest request = watch_escalation(several, "bob", argv, "alice");
    CHECK(request.subject == std::optional<std::string>(
                                 "watch gave up on 7 messages for bob: mr-1, mr-2, mr-3, mr-4, mr-5, ..."));
    for (const SetAside& one : several) {
      CHECK(request.body.find("\n- " + one.message.id + " from alice") != std::string::npos);
      CHECK(request.body.find(one.reason) != std::string::npos);
    }
    CHECK(request.parent->span_id == several.back().message.trace.span_id); // the last one's trace

    sent.from = "mailroom";
    sent.type = "escalation";
    sent.body = request.body;
    CHECK(is_watch_escalation_for(sent, watch_pair_line("bob", argv)));
    CHECK_FALSE(
        is_watch_escalation_for(sent, watch_pair_line("bob", {"./handle.sh", "x"}))); // another handler
    CHECK_FALSE(is_watch_escalation_for(sent, watch_pair_line("bo", argv)));
    CHECK_FALSE(is_watch_escalation_for(sent, watch_pair_line("carol", argv)));
    sent.from = "alice"; // a look-alike from anyone else is not one
    CHECK_FALSE(is_watch_escalation_for(sent, watch_pair_line("bob", argv)));
  }
}

} // namespace mailroom::mail
