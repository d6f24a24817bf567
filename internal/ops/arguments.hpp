#pragma once

// The one reader of JSON arguments, shared by the surfaces that take them as JSON objects: the
// MCP tools' arguments and the HTTP API's POST bodies and query parameters. A schema (a small
// subset of JSON Schema 2020-12: an object of typed properties, some required, no others) says
// what a call takes; `validate` refuses what it does not (an unknown key is a usage error, with
// the closest known key as a hint, so a typo'd "priorty" never passes silently); the readers then
// take the values out of validated arguments.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"

namespace mailroom::ops::args {

using nlohmann::json;

// An object of `properties` with `required` keys and no others (additionalProperties false).
json input(json properties, std::vector<std::string> required = {});

json string(std::string_view description);
json integer(std::string_view description, std::int64_t minimum,
             std::optional<std::int64_t> maximum = std::nullopt);
json boolean(std::string_view description);
// A list of strings; a single string is accepted as a list of one.
json strings(std::string_view description);
json enumeration(std::string_view description, std::vector<std::string> values);

// The first failure of `args` against `schema` (made by input()): not an object, an unknown key,
// a value of the wrong type or out of bounds, a missing required key. Errors: usage naming the
// argument (echoed through text::cap_for_echo and JSON-escaped by the error's renderer).
Result<void> validate(const json& schema, const json& args);

// Reads of arguments that passed validate(): an absent (or null) key is nullopt, false or empty.
std::optional<std::string> arg_string(const json& args, const char* key);
std::vector<std::string> arg_strings(const json& args, const char* key); // a string or a list
bool arg_flag(const json& args, const char* key);
std::optional<std::int64_t> arg_integer(const json& args, const char* key);

} // namespace mailroom::ops::args
