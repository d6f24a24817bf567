#include "exec/wire.hpp"

#include <doctest/doctest.h>

#include "mail/duration.hpp"

namespace mailroom::providers::exec {

TEST_SUITE("mailroom::providers::exec::wire")
{
  TEST_CASE("send JSON is compact, ordered and has no trailing newline")
  {
    CHECK(send_json("alice", "", "hello world") == R"({"from":"alice","subject":"","body":"hello world"})");
  }

  TEST_CASE("strings are escaped exactly like Go's encoding/json")
  {
    CHECK(go_json_string("a\"b\\c") == R"("a\"b\\c")");
    CHECK(go_json_string("\n\r\t\b\f") == R"("\n\r\t\b\f")");
    CHECK(go_json_string(std::string("\x01\x1f\x7f", 3)) == "\"\\u0001\\u001f\x7f\"");
    CHECK(go_json_string(std::string(1, '\0')) == R"("\u0000")");
    CHECK(go_json_string("<a href=x>&</a>") == R"("\u003ca href=x\u003e\u0026\u003c/a\u003e")");
    CHECK(go_json_string("line\xE2\x80\xA8par\xE2\x80\xA9") == R"("line\u2028par\u2029")");
    CHECK(go_json_string("caf\xC3\xA9 \xF0\x9F\x93\xAC \xEF\xBF\xBD") ==
          "\"caf\xC3\xA9 \xF0\x9F\x93\xAC \xEF\xBF\xBD\"");
  }

  TEST_CASE("each invalid UTF-8 byte becomes \\ufffd")
  {
    CHECK(go_json_string("a\xFF"
                         "b") == R"("a\ufffdb")");
    CHECK(go_json_string("\xE2\x82") == R"("\ufffd\ufffd")");                     // truncated sequence
    CHECK(go_json_string("\xC0\xAF") == R"("\ufffd\ufffd")");                     // overlong
    CHECK(go_json_string("\xED\xA0\x80") == R"("\ufffd\ufffd\ufffd")");           // surrogate
    CHECK(go_json_string("\xF4\x90\x80\x80") == R"("\ufffd\ufffd\ufffd\ufffd")"); // past U+10FFFF
  }

  // created_at is parsed by mail::parse_rfc3339 (mail/duration.hpp); pinned here for the wire.
  TEST_CASE("RFC 3339 times become UTC unix milliseconds")
  {
    using mail::parse_rfc3339;
    const mail::UnixMillis june15 = 1749983400000; // 2025-06-15T10:30:00Z
    CHECK(parse_rfc3339("2025-06-15T10:30:00Z") == june15);
    CHECK(parse_rfc3339("2025-06-15T12:30:00+02:00") == june15);
    CHECK(parse_rfc3339("2025-06-15T05:00:00-05:30") == june15);
    CHECK(parse_rfc3339("2025-06-15T10:30:00.25Z") == june15 + 250);
    CHECK(parse_rfc3339("2025-06-15T10:30:00.123456789Z") == june15 + 123);
    CHECK(parse_rfc3339("1970-01-01T00:00:00Z") == 0);
    CHECK(parse_rfc3339("2024-02-29T00:00:00Z").has_value());
  }

  TEST_CASE("times without a zone or out of range are refused")
  {
    using mail::parse_rfc3339;
    CHECK_FALSE(parse_rfc3339("2025-06-15T10:30:00"));
    CHECK_FALSE(parse_rfc3339("2025-06-15 10:30:00Z"));
    CHECK_FALSE(parse_rfc3339("2025-02-29T00:00:00Z"));
    CHECK_FALSE(parse_rfc3339("2025-06-15T24:00:00Z"));
    CHECK_FALSE(parse_rfc3339("2025-06-15T10:30:00.Z"));
    CHECK_FALSE(parse_rfc3339("2025-06-15T10:30:00Zjunk"));
    CHECK_FALSE(parse_rfc3339(""));
  }

  TEST_CASE("a gc Message parses with zero values for missing keys")
  {
    auto wire =
        parse_wire_message(R"({"id":"gc-1","from":"alice","to":"bob","subject":"s","body":"b",)"
                           R"("created_at":"2025-06-15T10:30:00Z","read":true,"thread_id":"thread-1",)"
                           R"("reply_to":"gc-0","cc":["carol"],"rig":"x","unknown":{"a":[1]}})");
    REQUIRE(wire.ok());
    const mail::Message& m = wire->message;
    CHECK(m.id == "gc-1");
    CHECK(m.to == std::vector<std::string>{"bob"});
    CHECK(m.cc == std::vector<std::string>{"carol"});
    CHECK(wire->read == std::optional<bool>(true));
    CHECK(m.reply_to == "gc-0");
    CHECK(m.priority == mail::Priority::normal);
    CHECK(m.created_at == 1749983400000);
    CHECK_FALSE(m.state.has_value());        // state is the viewer's: the provider decides who that is
    CHECK_FALSE(wire->archived.has_value()); // not reported is unknown, not false

    auto bare = parse_message(R"({"id":"gc-2"})");
    REQUIRE(bare.ok());
    CHECK(bare->to.empty());
    CHECK(bare->created_at == 0);
    CHECK_FALSE(bare->reply_to);
    CHECK(bare->priority == mail::Priority::normal);
    auto bare_wire = parse_wire_message(R"({"id":"gc-2"})");
    REQUIRE(bare_wire.ok());
    CHECK_FALSE(bare_wire->read.has_value());
    CHECK_FALSE(bare_wire->archived.has_value());
  }

  TEST_CASE("to may be an array, priority an int, and keys match case-insensitively like Go")
  {
    auto m = parse_message(R"({"ID":"gc-1","To":["bob","carol"],"priority":0})");
    REQUIRE(m.ok());
    CHECK(m->id == "gc-1");
    CHECK(m->to == std::vector<std::string>{"bob", "carol"});
    CHECK(m->priority == mail::Priority::urgent);
  }

  TEST_CASE("read and archived are optional: a key the script left out is unknown, not false")
  {
    auto gc = parse_wire_message(R"({"id":"gc-1","to":"bob"})");
    REQUIRE(gc.ok());
    CHECK_FALSE(gc->archived.has_value());
    CHECK_FALSE(gc->read.has_value());
    auto archived = parse_wire_message(R"({"id":"gc-1","to":"bob","archived":true})");
    REQUIRE(archived.ok());
    CHECK(archived->archived == std::optional<bool>(true));
    auto open = parse_wire_message(R"({"id":"gc-1","archived":false,"read":false})");
    REQUIRE(open.ok());
    CHECK(open->archived == std::optional<bool>(false));
    CHECK(open->read == std::optional<bool>(false));
    CHECK(parse_wire_message(R"({"id":"gc-1","Archived":true})")->archived == std::optional<bool>(true));
    CHECK_FALSE(parse_wire_message(R"({"id":"gc-1","archived":null})")->archived.has_value());
    const auto listed = parse_messages(R"([{"id":"a","archived":true},{"id":"b"}])");
    REQUIRE(listed.ok());
    REQUIRE(listed->size() == 2);
    CHECK((*listed)[0].archived == std::optional<bool>(true));
    CHECK_FALSE((*listed)[1].archived.has_value());
    CHECK_FALSE(parse_message(R"({"archived":"yes"})").ok());
  }

  TEST_CASE("malformed messages are errors")
  {
    CHECK_FALSE(parse_message("not json").ok());
    CHECK_FALSE(parse_message("null").ok());
    CHECK_FALSE(parse_message("[]").ok());
    CHECK_FALSE(parse_message(R"({"id":7})").ok());
    CHECK_FALSE(parse_message(R"({"read":"yes"})").ok());
    CHECK_FALSE(parse_message(R"({"created_at":"yesterday"})").ok());
  }

  TEST_CASE("lists and counts: empty text and null are none")
  {
    CHECK(parse_messages("")->empty());
    CHECK(parse_messages("null")->empty());
    CHECK(parse_messages("[]")->empty());
    CHECK(parse_messages(R"([{"id":"a"},{"id":"b"}])")->size() == 2);
    CHECK_FALSE(parse_messages(R"({"id":"a"})").ok());
    CHECK(parse_counts("")->total == 0);
    CHECK(parse_counts("null")->unread == 0);
    const auto counts = parse_counts(R"({"total":3,"unread":1})");
    REQUIRE(counts.ok());
    CHECK(counts->total == 3);
    CHECK(counts->unread == 1);
    CHECK_FALSE(parse_counts(R"({"total":"3"})").ok());
  }

  TEST_CASE("capabilities answers")
  {
    const auto ops = parse_capabilities(R"({"protocol":1,"ops":["inbox","count"]})");
    REQUIRE(ops);
    CHECK(*ops == std::vector<std::string>{"inbox", "count"});
    CHECK_FALSE(parse_capabilities(R"({"protocol":2,"ops":[]})"));
    CHECK_FALSE(parse_capabilities("garbage"));
    CHECK_FALSE(parse_capabilities(""));
  }
}

} // namespace mailroom::providers::exec
