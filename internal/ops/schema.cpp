#include "schema.hpp"

#include <string>
#include <string_view>

#include "mail/delivery_fields.hpp"
#include "mail/message_fields.hpp"

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

nlohmann::json map_of(nlohmann::json values)
{
  return nlohmann::json{{"type", "object"}, {"additionalProperties", std::move(values)}};
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

namespace {

// Adds `name` to `object` (an object()'s result) as a required key.
void require(nlohmann::json& object, std::string_view name, nlohmann::json value)
{
  object["properties"][std::string(name)] = std::move(value);
  object["required"].push_back(std::string(name));
}

nlohmann::json message_field(mail::FieldKind kind)
{
  switch (kind) {
  case mail::FieldKind::text:
  case mail::FieldKind::name:
  case mail::FieldKind::hex:
  case mail::FieldKind::body:
  case mail::FieldKind::millis:
    return string();
  case mail::FieldKind::optional_hex:
  case mail::FieldKind::optional_text:
  case mail::FieldKind::optional_millis:
    return nullable(string());
  case mail::FieldKind::names:
    return array_of(string());
  case mail::FieldKind::priority:
  case mail::FieldKind::integer:
    return integer();
  }
  return {};
}

nlohmann::json delivery_field(mail::DeliveryFieldKind kind)
{
  switch (kind) {
  case mail::DeliveryFieldKind::name:
  case mail::DeliveryFieldKind::text:
  case mail::DeliveryFieldKind::millis:
  case mail::DeliveryFieldKind::ack_state:
    return string();
  case mail::DeliveryFieldKind::optional_millis:
  case mail::DeliveryFieldKind::optional_name:
  case mail::DeliveryFieldKind::request_state:
    return nullable(string());
  case mail::DeliveryFieldKind::integer:
    return integer();
  }
  return {};
}

} // namespace

nlohmann::json message()
{
  // The stored fields the message JSON shows (mail/message_fields.hpp), then what
  // render::message_to_json derives.
  nlohmann::json doc = object({}, {{"summary", summary()}});
  for (const mail::MessageField& field : mail::k_message_fields) {
    if (field.view == mail::FieldView::shown) {
      require(doc, field.key, message_field(field.kind));
    }
  }
  require(doc, "body_bytes", integer());
  require(doc, "body_truncated", boolean());
  require(doc, "read", nullable(boolean()));
  require(doc, "archived", nullable(boolean()));
  require(doc, "ack_state", nullable(string()));
  require(doc, "request_state", nullable(string()));
  require(doc, "expired", boolean());
  require(doc, "redelivered", nullable(object({{"attempt", integer()}, {"first_sent_at", string()}})));
  require(doc, "schedule", nullable(string()));
  require(doc, "slot", nullable(string()));
  return doc;
}

nlohmann::json delivery()
{
  // The stored fields the delivery JSON shows (mail/delivery_fields.hpp), then the claim
  // (render::delivery_to_json).
  nlohmann::json doc = object({});
  for (const mail::DeliveryField& field : mail::k_delivery_fields) {
    if (field.view == mail::DeliveryFieldView::shown) {
      require(doc, field.column, delivery_field(field.kind));
    }
  }
  require(
      doc, "claim",
      nullable(object({{"claimed_by", string()}, {"claim_until", string()}, {"lease_left_ms", integer()}})));
  return doc;
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
