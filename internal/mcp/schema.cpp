#include "mcp/schema.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace mailroom::mcp::schema {

namespace {

Error usage(std::string message)
{
  return make_error(ErrorCode::usage, std::move(message));
}

bool is_type(const json& value, const std::string& type)
{
  if (type == "string") {
    return value.is_string();
  }
  if (type == "integer") {
    return value.is_number_integer() || value.is_number_unsigned() ||
           (value.is_number_float() && value.get<double>() == static_cast<double>(value.get<std::int64_t>()));
  }
  if (type == "boolean") {
    return value.is_boolean();
  }
  if (type == "array") {
    return value.is_array();
  }
  if (type == "object") {
    return value.is_object();
  }
  if (type == "null") {
    return value.is_null();
  }
  return false;
}

Result<void> check_value(const std::string& name, const json& schema, const json& value)
{
  if (schema.contains("anyOf")) {
    for (const json& option : schema["anyOf"]) {
      if (check_value(name, option, value).ok()) {
        return {};
      }
    }
    return usage(fmt::format("argument \"{}\" has the wrong type", name));
  }
  const std::string type = schema.value("type", "");
  if (!is_type(value, type)) {
    return usage(fmt::format("argument \"{}\" must be {} {}", name, type == "integer" ? "an" : "a", type));
  }
  if (type == "integer") {
    const std::int64_t n = value.get<std::int64_t>();
    if (schema.contains("minimum") && n < schema["minimum"].get<std::int64_t>()) {
      return usage(
          fmt::format("argument \"{}\" must be at least {}", name, schema["minimum"].get<std::int64_t>()));
    }
    if (schema.contains("maximum") && n > schema["maximum"].get<std::int64_t>()) {
      return usage(
          fmt::format("argument \"{}\" must be at most {}", name, schema["maximum"].get<std::int64_t>()));
    }
  }
  if (type == "string" && schema.contains("enum")) {
    bool known = false;
    for (const json& allowed : schema["enum"]) {
      known = known || allowed == value;
    }
    if (!known) {
      return usage(fmt::format("argument \"{}\" must be one of {}", name, schema["enum"].dump()));
    }
  }
  if (type == "array" && schema.contains("items")) {
    for (const json& item : value) {
      TRY(check_value(name, schema["items"], item));
    }
  }
  return {};
}

} // namespace

json input(json properties, std::vector<std::string> required)
{
  json doc{{"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
  if (!required.empty()) {
    doc["required"] = std::move(required);
  }
  return doc;
}

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

json string(std::string_view description)
{
  return json{{"type", "string"}, {"description", description}};
}

json integer(std::string_view description, std::int64_t minimum, std::optional<std::int64_t> maximum)
{
  json doc{{"type", "integer"}, {"description", description}, {"minimum", minimum}};
  if (maximum) {
    doc["maximum"] = *maximum;
  }
  return doc;
}

json boolean(std::string_view description)
{
  return json{{"type", "boolean"}, {"description", description}};
}

json strings(std::string_view description)
{
  return json{{"description", description},
              {"anyOf", json::array({json{{"type", "string"}},
                                     json{{"type", "array"}, {"items", json{{"type", "string"}}}}})}};
}

json enumeration(std::string_view description, std::vector<std::string> values)
{
  return json{{"type", "string"}, {"description", description}, {"enum", std::move(values)}};
}

json count()
{
  return json{{"type", "integer"}};
}

Result<void> validate(const json& input_schema, const json& args)
{
  if (!args.is_object()) {
    return usage("arguments must be an object");
  }
  const json& properties = input_schema["properties"];
  for (const auto& [name, value] : args.items()) {
    if (!properties.contains(name)) {
      return usage(fmt::format("unknown argument \"{}\"", name));
    }
    TRY(check_value(name, properties[name], value));
  }
  if (input_schema.contains("required")) {
    for (const json& name : input_schema["required"]) {
      if (!args.contains(name.get<std::string>())) {
        return usage(fmt::format("missing argument \"{}\"", name.get<std::string>()));
      }
    }
  }
  return {};
}

} // namespace mailroom::mcp::schema
