#include "render/json.hpp"

#include <doctest/doctest.h>

#include "text/display.hpp"

using namespace mailroom;
using namespace mailroom::mail;
using namespace mailroom::render;

TEST_SUITE("mailroom::render::json")
{
  TEST_CASE("a message has every contract key")
  {
    Message m;
    m.id = "mr-1";
    m.from = "a";
    m.to = {"b"};
    m.created_at = 0;
    const auto j = message_to_json(m);
    for (const char* key : {"id", "from", "to", "cc", "subject", "body", "created_at", "read", "archived",
                            "thread_id", "reply_to", "priority", "type"}) {
      CHECK_MESSAGE(j.contains(key), key);
    }
    CHECK(j["reply_to"].is_null());
    CHECK(j["priority"] == 2);
    CHECK(j["created_at"] == "1970-01-01T00:00:00.000Z"); // RFC 3339 UTC with milliseconds (round 2)
  }

  TEST_CASE("control characters are escaped and invalid UTF-8 is replaced")
  {
    auto doc = json_document();
    doc["s"] = std::string("esc\x1b c1\xC2\x9b del\x7f ls\xE2\x80\xA8 bad\xFF");
    const std::string out = dump_json(doc);
    CHECK(out ==
          "{\"s\":\"esc\\u001b c1\\u009b del\\u007f ls\\u2028 bad\xEF\xBF\xBD\",\"schema_version\":1}\n");
    CHECK(nlohmann::json::parse(out)["schema_version"] == 1);
  }

  TEST_CASE("errors carry code, message and exit code; recipient errors carry more")
  {
    Error e =
        make_error(ErrorCode::unknown_recipient, "unknown recipient \"mayr\"", "did you mean \"mayor\"?");
    e.input = "mayr";
    e.suggestions = {"mayor"};
    const auto doc = error_to_json(e);
    CHECK(doc["ok"] == false);
    CHECK(doc["error"]["code"] == "unknown_recipient");
    CHECK(doc["error"]["exit_code"] == 2);
    CHECK(doc["error"]["suggestions"][0] == "mayor");
    CHECK(doc["error"]["valid_shapes"].size() == 4);
    const auto nf = error_to_json(make_error(ErrorCode::not_found, "message \"x\" not found"));
    CHECK(nf["error"]["exit_code"] == 3);
    CHECK_FALSE(nf["error"].contains("suggestions"));
  }

  TEST_CASE("bidi, format, tag and separator characters are escaped and round-trip exactly")
  {
    const std::string text = "rlo\xE2\x80\xAE zw\xE2\x80\x8B tag\xF3\xA0\x81\x81 ps\xE2\x80\xA9 ok\xC3\xA9";
    auto doc = json_document();
    doc["s"] = text;
    const std::string out = dump_json(doc);
    CHECK(out ==
          "{\"s\":\"rlo\\u202e zw\\u200b tag\\udb40\\udc41 ps\\u2029 ok\xC3\xA9\",\"schema_version\":1}\n");
    CHECK(nlohmann::json::parse(out)["s"] == text);
  }

  TEST_CASE("a message keeps its exact text; invalid bytes become U+FFFD")
  {
    Message m;
    m.id = "mr-1";
    m.subject = "\x1b[31m\xE2\x80\xAE";
    m.body = "bad\xff";
    m.to = {"b\xfe"};
    const auto back = nlohmann::json::parse(dump_json(message_to_json(m)));
    CHECK(back["subject"] == m.subject);
    CHECK(back["body"] == "bad\xEF\xBF\xBD");
    CHECK(back["to"][0] == "b\xEF\xBF\xBD");
  }

  TEST_CASE("echoed values in errors are capped")
  {
    Error e =
        make_error(ErrorCode::invalid_recipient, "invalid recipient \"" + std::string(5000, 'x') + "\"");
    e.input = std::string(2'000'000, 'x');
    const auto doc = error_to_json(e);
    CHECK(doc["error"]["input"].get<std::string>().size() <= mailroom::text::k_default_cap_bytes);
    CHECK(doc["error"]["message"].get<std::string>().size() <= mailroom::text::k_error_line_cap_bytes);
  }
}
