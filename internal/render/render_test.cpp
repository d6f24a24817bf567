#include "render/render.hpp"

#include <cstdlib>

#include "text/sanitize.hpp"

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
    CHECK(format_rfc3339(k_sent) == "2026-04-18T10:11:12.000Z");
    CHECK(format_sent(k_sent) == "2026-04-18 10:11:12 UTC");
    CHECK(format_sent_short(k_sent) == "2026-04-18 10:11 UTC");
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
                                           "Sent:     2026-04-18 10:11:12 UTC\n"
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

  TEST_CASE("tables count display cells, cap columns and fit the width")
  {
    Table t;
    t.header = {"ID", "SUBJECT", "AGE"};
    t.rows = {{"mr-1", "\xE4\xBD\xA0\xE5\xA5\xBD", "5m ago"},
              {"mr-22", "a fairly long subject line", "1d ago"}};
    // Wide characters take two cells: the CJK subject pads as four cells.
    CHECK(render_table(t) == "ID     SUBJECT                     AGE\n"
                             "mr-1   \xE4\xBD\xA0\xE5\xA5\xBD                        5m ago\n"
                             "mr-22  a fairly long subject line  1d ago\n");
    // A cap cuts with an ellipsis.
    t.caps = {10, 8, 10};
    CHECK(render_table(t).str().find("a fairly\xE2\x80\xA6") == std::string::npos);
    CHECK(render_table(t).str().find("a fairl\xE2\x80\xA6") != std::string::npos);
    // A width makes the widest column give up cells first; floors hold.
    t.caps.clear();
    t.floors = {5, 4, 6};
    for (const std::size_t width : {40U, 30U, 24U, 20U}) {
      const std::string text = render_table(t, Style{width, false});
      std::size_t start = 0;
      while (start < text.size()) {
        const auto end = text.find('\n', start);
        CHECK(text::display_width(std::string_view(text).substr(start, end - start)) <= width);
        start = end + 1;
      }
    }
    CHECK(render_table(t, Style{20, false}).str().find("mr-22") != std::string::npos);
    CHECK(fit_cells(text::sanitize_line("\xF0\x9F\x8E\x89\xF0\x9F\x8E\x89 x"), 3) ==
          "\xF0\x9F\x8E\x89\xE2\x80\xA6");
  }

  TEST_CASE("colour: a bold header and urgent and high rows, only when asked")
  {
    UtcZone utc;
    Message urgent = sample();
    urgent.priority = Priority::urgent;
    Message high = sample();
    high.priority = Priority::high;
    const std::string plain = render_inbox_table({urgent, high}, k_sent, false, Style{});
    CHECK(plain.find('\x1b') == std::string::npos);
    CHECK(plain.find("urgent") != std::string::npos);
    CHECK(plain.find("high") != std::string::npos);
    const std::string coloured = render_inbox_table({urgent, high}, k_sent, false, Style{0, true});
    CHECK(coloured.rfind("\x1b[1mID", 0) == 0);
    CHECK(coloured.find("\x1b[1;31mmr-abc") != std::string::npos);
    CHECK(coloured.find("\x1b[33mmr-abc") != std::string::npos);
  }

  TEST_CASE("the thread view shows every body once, oldest first")
  {
    UtcZone utc;
    Message first = sample();
    Message second = sample();
    second.id = "mr-def";
    second.body = "second body\nline two";
    const std::string view = render_thread_view("thread-0123456789ab", {first, second});
    CHECK(view.rfind("Thread thread-0123456789ab: 2 messages\n\nID:       mr-abc\n", 0) == 0);
    CHECK(view.find("Body:     hey, are you still there?\n\nID:       mr-def\n") != std::string::npos);
    CHECK(view.find("Body:     second body\nline two\n") != std::string::npos);
    CHECK(view.find("Thread:") == std::string::npos);
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
    CHECK(second_line.find("\xE2\x80\xA6") != std::string::npos);
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
