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
// A tool's outputSchema, generated from its operation's result schema (ops::*_output_schema): the
// operation's keys and required keys, each with its JSON type only (nested objects and array items
// are not described further, which keeps tools/list within 24 KiB), plus `mailbox` and the keys
// the MCP server adds to the operation's object (`added`; `added_required` of them always present).
json from_operation(const json& operation, json added = json::object(),
                    std::vector<std::string> added_required = {});

json string(std::string_view description);
json integer(std::string_view description, std::int64_t minimum,
             std::optional<std::int64_t> maximum = std::nullopt);
json boolean(std::string_view description);
// A list of strings; a single string is accepted as a list of one.
json strings(std::string_view description);
json enumeration(std::string_view description, std::vector<std::string> values);

// Output pieces.
json count();

// The arguments' failures against `input_schema`, as a usage error naming the argument.
Result<void> validate(const json& input_schema, const json& args);

} // namespace mailroom::mcp::schema
