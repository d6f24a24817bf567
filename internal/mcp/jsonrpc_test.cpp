// JSON-RPC framing: the nesting bound (a line of any depth is parsed without recursion, values past
// the bound dropped) and the output gate of every line the server writes.

#include <string>

#include <doctest/doctest.h>

#include "mcp/jsonrpc.hpp"

namespace mailroom::mcp {

namespace {

// `depth` nested objects {"a":{"a":…1…}}.
std::string nested_objects(std::size_t depth)
{
  std::string line;
  for (std::size_t i = 0; i < depth; ++i) {
    line += "{\"a\":";
  }
  line += "1";
  line.append(depth, '}');
  return line;
}

} // namespace

TEST_SUITE("mailroom::mcp::jsonrpc")
{
  TEST_CASE("nesting up to the bound is kept; one level more is dropped and flagged")
  {
    // The envelope is one level, params a second: 62 more make 64.
    const auto line = [](std::size_t inner) {
      return "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\",\"params\":{\"x\":" + nested_objects(inner) +
             "}}";
    };
    const Parsed at = parse_line(line(k_max_json_depth - 2));
    CHECK_FALSE(at.too_deep);
    CHECK(at.message["params"].contains("x"));
    const Parsed over = parse_line(line(k_max_json_depth - 1));
    CHECK(over.too_deep);
    REQUIRE(over.message.is_object());
    CHECK(over.message["id"] == 7); // the envelope survives, so the answer can carry the id
    // The 65th container is not built: the 64th is left empty.
    const json* deepest = &over.message["params"]["x"];
    while (deepest->contains("a")) {
      deepest = &(*deepest)["a"];
    }
    CHECK(deepest->empty());
    CHECK(classify(over.message).kind == Incoming::Kind::request);
  }

  TEST_CASE("a 200,000-deep line costs no stack: objects, arrays, and unclosed")
  {
    const Parsed objects = parse_line(nested_objects(200000));
    CHECK(objects.too_deep);
    CHECK(objects.message.is_object());
    const std::string arrays = std::string(200000, '[') + std::string(200000, ']');
    CHECK(parse_line(arrays).too_deep);
    CHECK(parse_line(std::string(1000000, '[')).message.is_discarded());
    CHECK(parse_line("{\"a\":").message.is_discarded());
  }

  TEST_CASE("every line goes through the JSON output gate: hidden characters are escapes")
  {
    // ESC, C1 CSI, DEL, U+202E, U+2028, U+200B, a tag character, U+FEFF, in an id and a result.
    const std::string hostile =
        "\x1b[2J\xc2\x9b\x7f\xe2\x80\xae\xe2\x80\xa8\xe2\x80\x8b\xf3\xa0\x80\x81\xef\xbb\xbf";
    const std::string line = to_line(make_result(json(hostile), json{{"text", hostile}}));
    CHECK(line.back() == '\n');
    for (const unsigned char c : line.substr(0, line.size() - 1)) {
      CAPTURE(static_cast<int>(c));
      CHECK((c >= 0x20 && c < 0x7f));
    }
    CHECK(line.find("\\u202e") != std::string::npos);
    CHECK(line.find("\\u2028") != std::string::npos);
    CHECK(line.find("\\udb40\\udc01") != std::string::npos);
    CHECK(line.find("\\u001b") != std::string::npos);
    // Still the same JSON for a reader.
    const json back = json::parse(line);
    CHECK(back["id"] == hostile);
    CHECK(back["result"]["text"] == hostile);
    // Printable text outside ASCII is left as it is.
    CHECK(to_line(json("café ✓")).find("café ✓") != std::string::npos);
  }
}

} // namespace mailroom::mcp
