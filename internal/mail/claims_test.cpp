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
    auto to_sender = watch_escalation(message, "bob", 3, "exit status 1: boom", redelivery);
    REQUIRE(to_sender.has_value());
    CHECK(to_sender->from == "mailroom");
    CHECK(to_sender->to == std::vector<std::string>{"alice"});
    CHECK(to_sender->type == "escalation");
    CHECK(to_sender->subject == std::optional<std::string>("watch gave up on mr-1 for bob after 3 attempts"));
    CHECK(to_sender->body.find("exit status 1: boom") != std::string::npos);
    CHECK(to_sender->body.find("mailroom --as bob mark-unread mr-1") != std::string::npos);
    REQUIRE(to_sender->parent.has_value());
    CHECK(to_sender->parent->span_id == "00f067aa0ba902b7");
    redelivery.escalate_to = "ops";
    CHECK(watch_escalation(message, "bob", 1, "x", redelivery)->to == std::vector<std::string>{"ops"});
    message.from = "mailroom";
    CHECK_FALSE(watch_escalation(message, "bob", 1, "x", redelivery).has_value());
  }
}

} // namespace mailroom::mail
