#pragma once

// JSON Schema pieces for the tools' inputSchema and outputSchema, and the one validator of tool
// arguments against an inputSchema built from them (types, required keys, unknown keys, bounds).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"

namespace mailroom::mcp::schema {

using nlohmann::json;

// Input schemas: an object of `properties` with `required` keys and no others.
json input(json properties, std::vector<std::string> required = {});
// Output schemas: an object with at least `properties` and `required` (more keys may follow:
// JSON keys are only ever added).
json output(json properties, std::vector<std::string> required);

json string(std::string_view description);
json integer(std::string_view description, std::int64_t minimum,
             std::optional<std::int64_t> maximum = std::nullopt);
json boolean(std::string_view description);
// A list of strings; a single string is accepted as a list of one.
json strings(std::string_view description);
json enumeration(std::string_view description, std::vector<std::string> values);

// Output pieces.
json any_string();
json nullable_string();
json count();
json message();      // one message as render::message_to_json writes it, with body_bytes/body_truncated
json message_list(); // an array of message()
json nullable_message();

// The arguments' failures against `input_schema`, as a usage error naming the argument.
Result<void> validate(const json& input_schema, const json& args);

} // namespace mailroom::mcp::schema
