#pragma once

// Checks a result's JSON against its documented schema (the operations' output schemas,
// ops/schema.hpp): every key a schema requires is there, every key there is in the schema's
// properties (or its additionalProperties), and every value has the schema's type. It reads the
// subset of JSON Schema the operations write: type, const, properties, required,
// additionalProperties, items and anyOf.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mailroom::testing {

// Every difference between `doc` and `schema`, one "<path>: <what>" line each ("$.messages[0].to:
// missing"); empty when the document is what the schema says.
std::vector<std::string> schema_differences(const nlohmann::json& schema, const nlohmann::json& doc,
                                            const std::string& path = "$");

} // namespace mailroom::testing
