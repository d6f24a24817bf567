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
// A tool's outputSchema, generated from its operation's result schema (ops::*_output_schema): an
// object with the operation's required keys, `mailbox` and `added_required` (keys the MCP server
// always adds), each once. The keys' types are the operation's (docs/cli.md); leaving them out
// keeps the whole tools/list within 24 KiB as tools are added.
json from_operation(const json& operation, const std::vector<std::string>& added_required = {});

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
