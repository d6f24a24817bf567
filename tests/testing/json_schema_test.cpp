// The schema check the result-schema test relies on finds each kind of difference.

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "testing/json_schema.hpp"

namespace mailroom::testing {

TEST_SUITE("mailroom::testing json schema")
{
  using nlohmann::json;

  const json k_schema = json::parse(R"({
    "type": "object", "required": ["id", "to", "claim"],
    "properties": {
      "id": {"type": "string"},
      "to": {"type": "array", "items": {"type": "string"}},
      "claim": {"anyOf": [{"type": "object", "required": ["by"], "properties": {"by": {"type": "string"}}},
                          {"type": "null"}]},
      "states": {"type": "object", "additionalProperties": {"type": "string"}},
      "note": {"type": "string"}
    }
  })");

  TEST_CASE("a document the schema describes has no difference")
  {
    CHECK(schema_differences(k_schema, json::parse(R"({"id":"a","to":["b"],"claim":null})")).empty());
    CHECK(schema_differences(k_schema, json::parse(R"({"id":"a","to":[],"claim":{"by":"w"},"note":"n",
                                                      "states":{"bob":"working"}})"))
              .empty());
  }

  TEST_CASE("a missing key, an undocumented key and a wrong type are each named with their path")
  {
    CHECK(schema_differences(k_schema, json::parse(R"({"id":"a","claim":null})")) ==
          std::vector<std::string>{"$.to: missing"});
    CHECK(schema_differences(k_schema, json::parse(R"({"id":"a","to":[],"claim":null,"extra":1})")) ==
          std::vector<std::string>{"$.extra: not in the schema"});
    CHECK(schema_differences(k_schema, json::parse(R"({"id":1,"to":["b",2],"claim":null})")) ==
          std::vector<std::string>{"$.id: is number, not string", "$.to[1]: is number, not string"});
    CHECK(schema_differences(k_schema, json::parse(R"({"id":"a","to":[],"claim":{"by":"w","at":1}})")) ==
          std::vector<std::string>{"$.claim.at: not in the schema"});
    CHECK(schema_differences(k_schema, json::parse(R"({"id":"a","to":[],"claim":null,"states":{"b":1}})")) ==
          std::vector<std::string>{"$.states.b: is number, not string"});
  }
}

} // namespace mailroom::testing
