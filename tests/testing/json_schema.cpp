#include "testing/json_schema.hpp"

namespace mailroom::testing {

namespace {

bool has_type(const nlohmann::json& doc, const std::string& type)
{
  if (type == "object") {
    return doc.is_object();
  }
  if (type == "array") {
    return doc.is_array();
  }
  if (type == "string") {
    return doc.is_string();
  }
  if (type == "integer") {
    return doc.is_number_integer();
  }
  if (type == "number") {
    return doc.is_number();
  }
  if (type == "boolean") {
    return doc.is_boolean();
  }
  if (type == "null") {
    return doc.is_null();
  }
  return false;
}

void compare(const nlohmann::json& schema, const nlohmann::json& doc, const std::string& path,
             std::vector<std::string>& out)
{
  if (!schema.is_object()) {
    out.push_back(path + ": the schema is not an object");
    return;
  }
  if (schema.contains("anyOf")) {
    // The alternative that fits; else the differences from the first one of the value's type.
    std::vector<std::string> closest;
    bool typed = false;
    for (const nlohmann::json& alternative : schema["anyOf"]) {
      std::vector<std::string> differences;
      compare(alternative, doc, path, differences);
      if (differences.empty()) {
        return;
      }
      const bool same_type = alternative.contains("type") && has_type(doc, alternative["type"]);
      if (closest.empty() || (same_type && !typed)) {
        closest = std::move(differences);
        typed = same_type;
      }
    }
    out.insert(out.end(), closest.begin(), closest.end());
    return;
  }
  if (schema.contains("const") && doc != schema["const"]) {
    out.push_back(path + ": is " + doc.dump() + ", not " + schema["const"].dump());
  }
  if (!schema.contains("type")) {
    if (!schema.contains("const")) {
      out.push_back(path + ": the schema names no type");
    }
    return;
  }
  const std::string type = schema["type"];
  if (!has_type(doc, type)) {
    out.push_back(path + ": is " + std::string(doc.type_name()) + ", not " + type);
    return;
  }
  if (type == "array" && schema.contains("items")) {
    for (std::size_t i = 0; i < doc.size(); ++i) {
      compare(schema["items"], doc[i], path + "[" + std::to_string(i) + "]", out);
    }
  }
  if (type != "object") {
    return;
  }
  const nlohmann::json properties = schema.value("properties", nlohmann::json::object());
  for (const nlohmann::json& key : schema.value("required", nlohmann::json::array())) {
    if (!doc.contains(key.get<std::string>())) {
      out.push_back(path + "." + key.get<std::string>() + ": missing");
    }
  }
  for (const auto& [key, value] : doc.items()) {
    if (properties.contains(key)) {
      compare(properties[key], value, path + "." + key, out);
    } else if (schema.contains("additionalProperties") && schema["additionalProperties"].is_object()) {
      compare(schema["additionalProperties"], value, path + "." + key, out);
    } else {
      out.push_back(path + "." + key + ": not in the schema");
    }
  }
}

} // namespace

std::vector<std::string> schema_differences(const nlohmann::json& schema, const nlohmann::json& doc,
                                            const std::string& path)
{
  std::vector<std::string> out;
  compare(schema, doc, path, out);
  return out;
}

} // namespace mailroom::testing
