#include "render/render.hpp"

#include <cstdlib>

#include <doctest/doctest.h>

#include "text/display.hpp"

using namespace mailroom;
using namespace mailroom::mail;
using namespace mailroom::render;

namespace {

// 2026-04-18 10:11:12 UTC
constexpr UnixMillis k_sent = 1776507072000;

Message sample()
{
  Message m;
  m.id = "mr-abc";
  m.from = "human";
  m.to = {"mayor"};
  m.subject = "Hello";
  m.body = "hey, are you still there?";
  m.created_at = k_sent;
  m.thread_id = "thread-0123456789ab";
  return m;
}

struct UtcZone {
  UtcZone() { setenv("TZ", "UTC", 1); }
};

} // namespace

TEST_SUITE("mailroom::render::render")
{
  TEST_CASE("times")
  {
    UtcZone utc;
    CHECK(format_rfc3339(k_sent) == "2026-04-18T10:11:12.000Z"); // with milliseconds (round 2)
    CHECK(format_sent(k_sent) == "2026-04-18 10:11:12");
    CHECK(format_sent_short(k_sent) == "2026-04-18 10:11");
    CHECK(format_age(k_sent, k_sent + 5000) == "just now");
    CHECK(format_age(k_sent, k_sent + 5 * 60000) == "5m ago");
    CHECK(format_age(k_sent, k_sent + 3 * 3600000) == "3h ago");
    CHECK(format_age(k_sent, k_sent + 2 * 86400000) == "2d ago");
  }

  TEST_CASE("the header view pads labels to 10 columns")
  {
    UtcZone utc;
    CHECK(render_message_view(sample()) == "ID:       mr-abc\n"
                                          "From:     human\n"
                                          "To:       mayor\n"
                                          "Subject:  Hello\n"
                                          "Sent:     2026-04-18 10:11:12\n"
                                          "Thread:   thread-0123456789ab\n"
                                          "Body:     hey, are you still there?\n");
  }

  TEST_CASE("the header view shows cc, priority, reply-to and a multi-line body; hides empty subject")
  {
    UtcZone utc;
    Message m = sample();
    m.cc = {"bob", "carol"};
    m.subject.clear();
    m.priority = Priority::urgent;
    m.reply_to = "mr-xyz";
    m.body = "line 1\nline 2\x1b[2J\n";
    const std::string view = render_message_view(m);
    CHECK(view.find("Cc:       bob, carol\n") != std::string::npos);
    CHECK(view.find("Subject:") == std::string::npos);
    CHECK(view.find("Priority: urgent\n") != std::string::npos);
    CHECK(view.find("Reply-To: mr-xyz\n") != std::string::npos);
    CHECK(view.find("Body:     line 1\nline 2^[[2J\n") != std::string::npos);
    CHECK(view.find('\x1b') == std::string::npos);
  }

  TEST_CASE("tables pad every column but the last")
  {
    Table t;
    t.header = {"ID", "FROM", "BODY"};
    t.rows = {{"mr-1", "alice", "hi"}, {"mr-22", "bo", "yo"}};
    CHECK(render_table(t) == "ID     FROM   BODY\n"
                             "mr-1   alice  hi\n"
                             "mr-22  bo     yo\n");
  }

  TEST_CASE("inbox rows are one line each, bodies cut to 60 bytes")
  {
    UtcZone utc;
    Message m = sample();
    m.body = "first line\nsecond line " + std::string(80, 'x');
    const std::string table = render_inbox_table({m}, k_sent + 120000, false);
    const auto second_line = table.substr(table.find('\n') + 1);
    CHECK(second_line.rfind("mr-abc", 0) == 0);
    CHECK(second_line.find("first line second line") != std::string::npos);
    CHECK(second_line.find("...") != std::string::npos);
    CHECK(second_line.find("2m ago") != std::string::npos);
    CHECK(std::count(table.begin(), table.end(), '\n') == 2);
  }

  TEST_CASE("thread table marks read messages")
  {
    UtcZone utc;
    Message a = sample();
    a.state = mail::DeliveryState{};
    a.state->read = true;
    const std::string table = render_thread_table({a});
    CHECK(table.find("\xE2\x9C\x93") != std::string::npos);
    CHECK(table.find("2026-04-18 10:11") != std::string::npos);
  }

  TEST_CASE("every view shows hidden characters as escapes")
  {
    UtcZone utc;
    Message m = sample();
    m.from = "ev\xE2\x80\x8Bil";
    m.subject = "S\xE2\x80\xA8ubject";
    m.body = "line\xE2\x80\xA8two\n\xF3\xA0\x81\x81";
    const std::string view = render_message_view(m);
    CHECK(view.find("From:     ev<U+200B>il\n") != std::string::npos);
    CHECK(view.find("Subject:  S<U+2028>ubject\n") != std::string::npos);
    CHECK(view.find("Body:     line<U+2028>two\n<U+E0041>\n") != std::string::npos);
    const std::string table = render_inbox_table({m}, k_sent, false);
    CHECK(table.find("ev<U+200B>il") != std::string::npos);
    CHECK(table.find("line<U+2028>two <U+E0041>") != std::string::npos);
  }

  TEST_CASE("render_table sanitises raw cells and ids are capped")
  {
    Table t;
    t.header = {"KEY", "VALUE"};
    t.rows = {{"k\x1b", "v\n2"}};
    CHECK(render_table(t) == "KEY  VALUE\n"
                             "k^[  v 2\n");
    Message m = sample();
    m.id = std::string(5000, 'i');
    const std::string view = render_message_view(m);
    CHECK(view.substr(0, view.find('\n')).size() <= 10 + mailroom::text::k_default_cap_bytes);
  }
}
