#include "arguments.hpp"

#include <fmt/format.h>

#include "text/strings.hpp"

namespace mailroom::ops::args {

namespace {

Error usage(std::string message, std::string hint = {})
{
  return make_error(ErrorCode::usage, std::move(message), std::move(hint));
}

// The most unknown keys one error names.
constexpr std::size_t k_unknown_named = 5;

// A name from the arguments as an error echoes it: cut, then escaped by the JSON or text gate.
std::string echo(std::string_view name)
{
  return text::cap_for_echo(name, 64);
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
  return false;
}

Result<void> check_value(std::string_view name, const json& schema, const json& value)
{
  if (const auto any = schema.find("anyOf"); any != schema.end()) {
    for (const json& option : *any) {
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
    if (const auto min = schema.find("minimum"); min != schema.end() && n < min->get<std::int64_t>()) {
      return usage(fmt::format("argument \"{}\" must be at least {}", name, min->get<std::int64_t>()));
    }
    if (const auto max = schema.find("maximum"); max != schema.end() && n > max->get<std::int64_t>()) {
      return usage(fmt::format("argument \"{}\" must be at most {}", name, max->get<std::int64_t>()));
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

// The known key closest to `name` (at most 2 edits away), for a did-you-mean hint.
std::string closest(const json& properties, std::string_view name)
{
  std::string best;
  std::size_t best_distance = 3;
  for (const auto& [key, value] : properties.items()) {
    const std::size_t d = text::edit_distance(name, key);
    if (d < best_distance) {
      best = key;
      best_distance = d;
    }
  }
  return best;
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

Result<void> validate(const json& schema, const json& args)
{
  if (!args.is_object()) {
    return usage("arguments must be an object");
  }
  const json& properties = schema.at("properties");
  std::vector<std::string> unknown;     // each quoted, as echoed
  std::vector<std::string> suggestions; // "known" (not "given")
  std::string near_first;               // the closest known key to the first unknown one
  for (const auto& [name, value] : args.items()) {
    if (properties.contains(name) || unknown.size() == k_unknown_named) {
      continue;
    }
    const std::string near = closest(properties, name);
    if (unknown.empty()) {
      near_first = near;
    }
    unknown.push_back(fmt::format("\"{}\"", echo(name)));
    if (!near.empty()) {
      suggestions.push_back(fmt::format("\"{}\" (not {})", near, unknown.back()));
    }
  }
  if (unknown.size() == 1) {
    return usage(fmt::format("unknown argument {}", unknown[0]),
                 near_first.empty() ? std::string() : fmt::format("did you mean \"{}\"?", near_first));
  }
  if (!unknown.empty()) {
    return usage(fmt::format("unknown arguments {}", text::join(unknown, ", ")),
                 suggestions.empty() ? std::string()
                                     : fmt::format("did you mean {}?", text::join(suggestions, ", ")));
  }
  for (const auto& [name, value] : args.items()) {
    if (!value.is_null()) { // null: not given
      TRY(check_value(name, properties[name], value));
    }
  }
  if (const auto required = schema.find("required"); required != schema.end()) {
    for (const json& name : *required) {
      const auto given = args.find(name.get<std::string>());
      if (given == args.end() || given->is_null()) {
        return usage(fmt::format("missing argument \"{}\"", name.get<std::string>()));
      }
    }
  }
  return {};
}

std::optional<std::string> arg_string(const json& args, const char* key)
{
  const auto it = args.find(key);
  if (it == args.end() || !it->is_string()) {
    return std::nullopt;
  }
  return it->get<std::string>();
}

std::vector<std::string> arg_strings(const json& args, const char* key)
{
  const auto it = args.find(key);
  if (it == args.end() || it->is_null()) {
    return {};
  }
  if (it->is_string()) {
    return {it->get<std::string>()};
  }
  std::vector<std::string> out;
  for (const json& item : *it) {
    out.push_back(item.get<std::string>());
  }
  return out;
}

bool arg_flag(const json& args, const char* key)
{
  const auto it = args.find(key);
  return it != args.end() && it->is_boolean() && it->get<bool>();
}

std::optional<std::int64_t> arg_integer(const json& args, const char* key)
{
  const auto it = args.find(key);
  if (it == args.end() || !it->is_number()) {
    return std::nullopt;
  }
  return it->get<std::int64_t>();
}

} // namespace mailroom::ops::args
