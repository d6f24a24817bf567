#pragma once

// Small builders for the JSON Schemas of the operations' results (the MCP tools' outputSchema).
// A schema lists the keys a result always has as required and allows more, since JSON keys are
// only ever added. Built only when asked for: never on a command's path.

#include <initializer_list>
#include <utility>

#include <nlohmann/json.hpp>

namespace mailroom::ops::schema {

using Properties = std::initializer_list<std::pair<const char*, nlohmann::json>>;

nlohmann::json string();
nlohmann::json integer();
nlohmann::json boolean();
nlohmann::json number();
// `inner`, or null.
nlohmann::json nullable(nlohmann::json inner);
nlohmann::json array_of(nlohmann::json items);
// An object whose keys are data (recipients, say), each value of schema `values`.
nlohmann::json map_of(nlohmann::json values);
// An object with `required` keys (always present) and `optional` ones.
nlohmann::json object(Properties required, Properties optional = {});
// A top-level result: object() with "schema_version" (the integer 1) required too.
nlohmann::json document(Properties required, Properties optional = {});

// A result's "warnings": [{"code","message"}] (ops::warnings_to_json).
nlohmann::json warnings();

// A message object (render::message_to_json): its stored fields from mail/message_fields.hpp.
nlohmann::json message();
// A delivery object (render::delivery_to_json): its fields from mail/delivery_fields.hpp.
nlohmann::json delivery();
// A sent message's recipients at a glance (render::summary_to_json).
nlohmann::json summary();

} // namespace mailroom::ops::schema
