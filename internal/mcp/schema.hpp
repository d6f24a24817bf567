#pragma once

// JSON Schema pieces for the tools' inputSchema and outputSchema. The input side (the pieces and
// the validator of arguments: types, required keys, unknown keys, bounds) is the one argument
// reader the HTTP API shares (ops/arguments.hpp).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "ops/arguments.hpp"

namespace mailroom::mcp::schema {

using nlohmann::json;

// Input schemas: an object of `properties` with `required` keys and no others.
using ops::args::input;
// A tool's outputSchema, generated from its operation's result schema (ops::*_output_schema): the
// operation's keys and required keys, each with its JSON type only (nested objects and array items
// are not described further, which keeps tools/list within 24 KiB), plus `mailbox` and the keys
// the MCP server adds to the operation's object (`added`; `added_required` of them always present).
json from_operation(const json& operation, json added = json::object(),
                    std::vector<std::string> added_required = {});

using ops::args::boolean;
using ops::args::enumeration;
using ops::args::integer;
using ops::args::string;
using ops::args::strings; // a single string is accepted as a list of one

// Output pieces.
json count();

// The arguments' failures against `input_schema`, as a usage error naming the argument.
using ops::args::validate;

} // namespace mailroom::mcp::schema
