// The one JSON argument reader of the MCP tools and the HTTP API.

#include <doctest/doctest.h>

#include "ops/arguments.hpp"

namespace mailroom::ops::args {

namespace {

json send_like()
{
  return input(json{{"to", strings("recipients")},
                    {"body", string("text")},
                    {"priority", enumeration("priority", {"urgent", "normal"})},
                    {"ack", boolean("ack")},
                    {"limit", integer("limit", 1, 100)}},
               {"to"});
}

std::string failure(const json& args)
{
  const Result<void> checked = validate(send_like(), args);
  return checked.ok() ? std::string() : checked.error().message + "|" + checked.error().hint;
}

} // namespace

TEST_CASE("ops args: an unknown key is a usage error naming it and the closest known key")
{
  const Result<void> checked = validate(send_like(), json{{"to", "bob"}, {"priorty", "urgent"}});
  REQUIRE_FALSE(checked.ok());
  CHECK(checked.error().code == ErrorCode::usage);
  CHECK(checked.error().message == "unknown argument \"priorty\"");
  CHECK(checked.error().hint == "did you mean \"priority\"?");
  CHECK(failure(json{{"to", "bob"}, {"zzzzzzzz", 1}}) == "unknown argument \"zzzzzzzz\"|");
  // Several: each named (at most 5), with a suggestion for each that has one.
  CHECK(failure(json{{"to", "bob"}, {"priorty", "urgent"}, {"zzzzzzzz", 1}, {"bdy", "x"}}) ==
        "unknown arguments \"bdy\", \"priorty\", \"zzzzzzzz\"|did you mean \"body\" (not \"bdy\"), "
        "\"priority\" (not \"priorty\")?");
  json many{{"to", "bob"}};
  for (int i = 0; i < 20; ++i) {
    many["unknown" + std::to_string(i + 10)] = i;
  }
  CHECK(failure(many).find("\"unknown14\"|") != std::string::npos);
  // A long hostile key is echoed cut.
  const std::string key(5000, 'k');
  CHECK(failure(json{{"to", "bob"}, {key, 1}}).size() < 120);
}

TEST_CASE("ops args: types, bounds, enums and required keys")
{
  CHECK(failure(json{{"to", "bob"}}).empty());
  CHECK(failure(json{{"to", json::array({"bob", "carol"})}, {"limit", 3}}).empty());
  CHECK(failure(json::object()) == "missing argument \"to\"|");
  CHECK(failure(json{{"to", 3}}) == "argument \"to\" has the wrong type|");
  CHECK(failure(json{{"to", json::array({"bob", 3})}}) == "argument \"to\" has the wrong type|");
  CHECK(failure(json{{"to", "bob"}, {"ack", "yes"}}) == "argument \"ack\" must be a boolean|");
  CHECK(failure(json{{"to", "bob"}, {"limit", 0}}) == "argument \"limit\" must be at least 1|");
  CHECK(failure(json{{"to", "bob"}, {"limit", 101}}) == "argument \"limit\" must be at most 100|");
  CHECK(failure(json{{"to", "bob"}, {"limit", 2.5}}) == "argument \"limit\" must be an integer|");
  CHECK(failure(json{{"to", "bob"}, {"priority", "hi"}}) ==
        "argument \"priority\" must be one of [\"urgent\",\"normal\"]|");
  CHECK(failure(json::array()) == "arguments must be an object|");
}

TEST_CASE("ops args: null is a key not given")
{
  CHECK(failure(json{{"to", "bob"}, {"body", nullptr}}).empty());
  CHECK(failure(json{{"to", nullptr}}) == "missing argument \"to\"|");
  const json args{{"to", "bob"}, {"body", nullptr}, {"ack", nullptr}};
  CHECK_FALSE(arg_string(args, "body"));
  CHECK_FALSE(arg_flag(args, "ack"));
}

TEST_CASE("ops args: the readers take validated values out")
{
  const json args{{"to", "bob"}, {"cc", json::array({"a", "b"})}, {"ack", true}, {"limit", 7}};
  CHECK(arg_string(args, "to") == "bob");
  CHECK(arg_strings(args, "to") == std::vector<std::string>{"bob"});
  CHECK(arg_strings(args, "cc") == std::vector<std::string>{"a", "b"});
  CHECK(arg_strings(args, "none").empty());
  CHECK(arg_flag(args, "ack"));
  CHECK_FALSE(arg_flag(args, "none"));
  CHECK(arg_integer(args, "limit") == 7);
  CHECK_FALSE(arg_integer(args, "none"));
}

} // namespace mailroom::ops::args
