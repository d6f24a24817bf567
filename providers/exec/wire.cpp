#include "exec/wire.hpp"

#include "mail/duration.hpp"

#include <array>
#include <cctype>
#include <chrono>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace mailroom::providers::exec {

namespace {

using nlohmann::json;

bool iequals(std::string_view a, std::string_view b)
{
  if (a.size() != b.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// Go's decoder prefers an exact key, then any case-insensitive match.
const json* find_key(const json& object, std::string_view name)
{
  if (const auto it = object.find(std::string(name)); it != object.end()) {
    return &*it;
  }
  for (const auto& [key, value] : object.items()) {
    if (iequals(key, name)) {
      return &value;
    }
  }
  return nullptr;
}

Error malformed(std::string message)
{
  return make_error(ErrorCode::provider_error, std::move(message));
}

Result<json> parse_json(std::string_view text)
{
  try {
    return json::parse(text);
  } catch (const json::exception& e) {
    return malformed(fmt::format("invalid JSON output: {}", e.what()));
  }
}

Result<std::string> get_string(const json& object, std::string_view key)
{
  const json* value = find_key(object, key);
  if (value == nullptr || value->is_null()) {
    return std::string();
  }
  if (!value->is_string()) {
    return malformed(fmt::format("key \"{}\" is not a string", key));
  }
  return value->get<std::string>();
}

Result<std::vector<std::string>> get_strings(const json& object, std::string_view key, bool allow_string)
{
  const json* value = find_key(object, key);
  std::vector<std::string> out;
  if (value == nullptr || value->is_null()) {
    return out;
  }
  if (allow_string && value->is_string()) {
    if (!value->get_ref<const std::string&>().empty()) {
      out.push_back(value->get<std::string>());
    }
    return out;
  }
  if (!value->is_array()) {
    return malformed(fmt::format("key \"{}\" is not an array", key));
  }
  for (const auto& item : *value) {
    if (!item.is_string()) {
      return malformed(fmt::format("key \"{}\" holds a non-string", key));
    }
    out.push_back(item.get<std::string>());
  }
  return out;
}

// nullopt when the key is missing or null.
Result<std::optional<bool>> get_bool(const json& object, std::string_view key)
{
  const json* value = find_key(object, key);
  if (value == nullptr || value->is_null()) {
    return std::optional<bool>();
  }
  if (!value->is_boolean()) {
    return malformed(fmt::format("key \"{}\" is not a boolean", key));
  }
  return std::optional<bool>(value->get<bool>());
}

Result<WireMessage> wire_message_from_json(const json& object)
{
  if (!object.is_object()) {
    return malformed("expected a message object");
  }
  WireMessage wire;
  mail::Message& m = wire.message;
  TRY_ASSIGN(m.id, get_string(object, "id"));
  TRY_ASSIGN(m.from, get_string(object, "from"));
  TRY_ASSIGN(m.to, get_strings(object, "to", true));
  TRY_ASSIGN(m.cc, get_strings(object, "cc", false));
  TRY_ASSIGN(m.subject, get_string(object, "subject"));
  TRY_ASSIGN(m.body, get_string(object, "body"));
  TRY_ASSIGN(m.thread_id, get_string(object, "thread_id"));
  TRY_ASSIGN(const std::string reply_to, get_string(object, "reply_to"));
  if (!reply_to.empty()) {
    m.reply_to = reply_to;
  }
  TRY_ASSIGN(const std::string created_at, get_string(object, "created_at"));
  if (!created_at.empty()) {
    const auto millis = mail::parse_rfc3339(created_at);
    if (!millis) {
      return malformed(fmt::format("created_at \"{}\" is not an RFC 3339 time", created_at));
    }
    m.created_at = *millis;
  }
  TRY_ASSIGN(wire.read, get_bool(object, "read"));
  TRY_ASSIGN(wire.archived, get_bool(object, "archived"));
  if (const json* priority = find_key(object, "priority"); priority != nullptr && !priority->is_null()) {
    if (priority->is_number_integer()) {
      const auto value = priority->get<std::int64_t>();
      // gc has no fixed scale; values outside mailroom's 0..4 are treated as normal.
      if (value >= 0 && value <= 4) {
        m.priority = static_cast<mail::Priority>(value);
      }
    } else if (priority->is_string()) {
      m.priority = mail::parse_priority(priority->get<std::string>()).value_or(mail::Priority::normal);
    } else {
      return malformed("key \"priority\" is not an integer");
    }
  }
  return wire;
}

Result<mail::Message> message_from_json(const json& object)
{
  TRY_ASSIGN(WireMessage wire, wire_message_from_json(object));
  return std::move(wire.message);
}

} // namespace

Result<mail::Message> parse_message(std::string_view text)
{
  TRY_ASSIGN(const json doc, parse_json(text));
  return message_from_json(doc);
}

Result<WireMessage> parse_wire_message(std::string_view text)
{
  TRY_ASSIGN(const json doc, parse_json(text));
  return wire_message_from_json(doc);
}

Result<std::vector<WireMessage>> parse_messages(std::string_view text)
{
  std::vector<WireMessage> messages;
  if (text.empty()) {
    return messages;
  }
  TRY_ASSIGN(const json doc, parse_json(text));
  if (doc.is_null()) {
    return messages;
  }
  if (!doc.is_array()) {
    return malformed("expected a message array");
  }
  for (const auto& item : doc) {
    TRY_ASSIGN(WireMessage m, wire_message_from_json(item));
    messages.push_back(std::move(m));
  }
  return messages;
}

Result<mail::Counts> parse_counts(std::string_view text)
{
  mail::Counts counts;
  if (text.empty()) {
    return counts;
  }
  TRY_ASSIGN(const json doc, parse_json(text));
  if (doc.is_null()) {
    return counts;
  }
  if (!doc.is_object()) {
    return malformed("expected {\"total\":N,\"unread\":N}");
  }
  for (auto [key, field] : {std::pair{"total", &counts.total}, std::pair{"unread", &counts.unread}}) {
    const json* value = find_key(doc, key);
    if (value == nullptr || value->is_null()) {
      continue;
    }
    if (!value->is_number_integer()) {
      return malformed(fmt::format("key \"{}\" is not an integer", key));
    }
    *field = value->get<std::int64_t>();
  }
  return counts;
}

std::optional<std::vector<std::string>> parse_capabilities(std::string_view text)
{
  const json doc = json::parse(text, nullptr, false);
  if (!doc.is_object()) {
    return std::nullopt;
  }
  const auto protocol = doc.find("protocol");
  const auto ops = doc.find("ops");
  if (protocol == doc.end() || *protocol != 1 || ops == doc.end() || !ops->is_array()) {
    return std::nullopt;
  }
  std::vector<std::string> names;
  for (const auto& op : *ops) {
    if (!op.is_string()) {
      return std::nullopt;
    }
    names.push_back(op.get<std::string>());
  }
  return names;
}

} // namespace mailroom::providers::exec
