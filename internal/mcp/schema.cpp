#include "mcp/schema.hpp"

#include <algorithm>

namespace mailroom::mcp::schema {

namespace {

// A property's schema reduced to its JSON type(s).
json type_only(const json& property)
{
  if (property.contains("anyOf")) {
    json any = json::array();
    for (const json& alternative : property["anyOf"]) {
      any.push_back(type_only(alternative));
    }
    return json{{"anyOf", std::move(any)}};
  }
  if (property.contains("type")) {
    return json{{"type", property["type"]}};
  }
  return json::object();
}

} // namespace

json from_operation(const json& operation, json added, std::vector<std::string> added_required)
{
  json properties = json::object();
  for (const auto& [key, value] : operation.at("properties").items()) {
    properties[key] = type_only(value);
  }
  for (auto& [key, value] : added.items()) {
    properties[key] = std::move(value);
  }
  properties["mailbox"] = json{{"type", "string"}};
  // JSON Schema 2020-12: the items of "required" are unique.
  json required = json::array();
  const auto require = [&required](const json& key) {
    if (std::find(required.begin(), required.end(), key) == required.end()) {
      required.push_back(key);
    }
  };
  for (const json& key : operation.value("required", json::array())) {
    require(key);
  }
  for (const std::string& key : added_required) {
    require(key);
  }
  require("mailbox");
  return json{{"type", "object"}, {"properties", std::move(properties)}, {"required", std::move(required)}};
}

json count()
{
  return json{{"type", "integer"}};
}

} // namespace mailroom::mcp::schema
