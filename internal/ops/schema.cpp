#include "schema.hpp"

namespace mailroom::ops::schema {

namespace {

nlohmann::json typed(const char* type)
{
  return nlohmann::json{{"type", type}};
}

} // namespace

nlohmann::json string()
{
  return typed("string");
}
nlohmann::json integer()
{
  return typed("integer");
}
nlohmann::json boolean()
{
  return typed("boolean");
}
nlohmann::json number()
{
  return typed("number");
}

nlohmann::json nullable(nlohmann::json inner)
{
  return nlohmann::json{{"anyOf", nlohmann::json::array({std::move(inner), typed("null")})}};
}

nlohmann::json array_of(nlohmann::json items)
{
  return nlohmann::json{{"type", "array"}, {"items", std::move(items)}};
}

nlohmann::json object(Properties required, Properties optional)
{
  nlohmann::json properties = nlohmann::json::object();
  nlohmann::json names = nlohmann::json::array();
  for (const auto& [name, value] : required) {
    properties[name] = value;
    names.push_back(name);
  }
  for (const auto& [name, value] : optional) {
    properties[name] = value;
  }
  return nlohmann::json{
      {"type", "object"}, {"properties", std::move(properties)}, {"required", std::move(names)}};
}

nlohmann::json document(Properties required, Properties optional)
{
  nlohmann::json doc = object(required, optional);
  doc["properties"]["schema_version"] = nlohmann::json{{"type", "integer"}, {"const", 1}};
  doc["required"].insert(doc["required"].begin(), "schema_version");
  return doc;
}

nlohmann::json message()
{
  const nlohmann::json names = array_of(string());
  return object({{"id", string()},
                 {"from", string()},
                 {"to", names},
                 {"cc", names},
                 {"subject", string()},
                 {"body", string()},
                 {"body_bytes", integer()},
                 {"body_truncated", boolean()},
                 {"created_at", string()},
                 {"read", nullable(boolean())},
                 {"archived", nullable(boolean())},
                 {"ack_state", nullable(string())},
                 {"request_state", nullable(string())},
                 {"thread_id", string()},
                 {"reply_to", nullable(string())},
                 {"priority", integer()},
                 {"type", string()},
                 {"addressed_to", names},
                 {"trace_id", string()},
                 {"span_id", string()},
                 {"parent_span_id", nullable(string())},
                 {"expires_at", nullable(string())},
                 {"dedup_key", nullable(string())},
                 {"expired", boolean()},
                 {"redelivered", nullable(object({{"attempt", integer()}, {"first_sent_at", string()}}))},
                 {"schedule", nullable(string())},
                 {"slot", nullable(string())}},
                {{"summary", summary()}});
}

nlohmann::json warnings()
{
  return array_of(object({{"code", string()}, {"message", string()}}));
}

nlohmann::json summary()
{
  return object({{"recipients", integer()},
                 {"read", integer()},
                 {"archived", integer()},
                 {"acked", integer()},
                 {"awaiting_ack", integer()},
                 {"failed", integer()},
                 {"claimed", integer()},
                 {"set_aside", integer()},
                 {"handler_failed", integer()}});
}

} // namespace mailroom::ops::schema
