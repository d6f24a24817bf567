#include "render/transfer_fields.hpp"

#include <fmt/format.h>

#include "mail/duration.hpp"
#include "render/render.hpp"
#include "text/base64.hpp"
#include "text/strings.hpp"

namespace mailroom::render::detail {

void put_text(nlohmann::ordered_json& j, const std::string& name, const std::string& value)
{
  if (text::is_valid_utf8(value)) {
    j[name] = value;
  } else {
    j[name + "_b64"] = text::base64_encode(value);
  }
}

void put_optional_text(nlohmann::ordered_json& j, const std::string& name,
                       const std::optional<std::string>& value)
{
  if (value) {
    put_text(j, name, *value);
  } else {
    j[name] = nullptr;
  }
}

nlohmann::ordered_json time_value(const std::optional<mail::UnixMillis>& when)
{
  return when ? nlohmann::ordered_json(format_rfc3339(*when)) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json names(const std::vector<std::string>& list)
{
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const std::string& name : list) {
    out.push_back(name);
  }
  return out;
}

Result<std::optional<std::int64_t>> RecordFields::optional_integer(const std::string& name) const
{
  const auto it = m_object.find(name);
  if (it == m_object.end()) {
    return missing(name);
  }
  if (it->is_null()) {
    return std::optional<std::int64_t>();
  }
  TRY_ASSIGN(const std::int64_t value, integer(name));
  return std::optional<std::int64_t>(value);
}

Result<bool> RecordFields::flag(const std::string& name) const
{
  const auto it = m_object.find(name);
  if (it == m_object.end()) {
    return missing(name);
  }
  if (!it->is_boolean()) {
    return wrong(name, "true or false");
  }
  return it->get<bool>();
}

Error RecordFields::missing(std::string_view name) const
{
  return make_error(ErrorCode::usage, fmt::format("{} record has no \"{}\"", m_kind, name));
}

Error RecordFields::wrong(std::string_view name, std::string_view expected) const
{
  return make_error(ErrorCode::usage, fmt::format("{} record: \"{}\" is not {}", m_kind, name, expected));
}

Result<std::optional<std::string>> RecordFields::optional_text(const std::string& name) const
{
  const auto plain = m_object.find(name);
  if (plain != m_object.end() && !plain->is_null()) {
    if (!plain->is_string()) {
      return wrong(name, "a string");
    }
    return std::optional<std::string>(plain->get<std::string>());
  }
  const auto coded = m_object.find(name + "_b64");
  if (coded != m_object.end() && !coded->is_null()) {
    if (!coded->is_string()) {
      return wrong(name + "_b64", "a string");
    }
    auto bytes = text::base64_decode(coded->get_ref<const std::string&>());
    if (!bytes) {
      return wrong(name + "_b64", "canonical base64");
    }
    return std::optional<std::string>(std::move(*bytes));
  }
  return std::optional<std::string>();
}

Result<std::string> RecordFields::text(const std::string& name) const
{
  TRY_ASSIGN(std::optional<std::string> value, optional_text(name));
  if (!value) {
    return missing(name);
  }
  return std::move(*value);
}

Result<std::vector<std::string>> RecordFields::names(const std::string& name) const
{
  const auto it = m_object.find(name);
  if (it == m_object.end()) {
    return missing(name);
  }
  if (!it->is_array()) {
    return wrong(name, "an array of names");
  }
  std::vector<std::string> out;
  for (const Json& item : *it) {
    if (!item.is_string()) {
      return wrong(name, "an array of names");
    }
    out.push_back(item.get<std::string>());
  }
  return out;
}

Result<std::int64_t> RecordFields::integer(const std::string& name) const
{
  const auto it = m_object.find(name);
  if (it == m_object.end()) {
    return missing(name);
  }
  if (!it->is_number_integer()) {
    return wrong(name, "an integer");
  }
  return it->get<std::int64_t>();
}

Result<std::optional<mail::UnixMillis>> RecordFields::optional_time(const std::string& name) const
{
  const auto it = m_object.find(name);
  if (it == m_object.end() || it->is_null()) {
    return std::optional<mail::UnixMillis>();
  }
  if (!it->is_string()) {
    return wrong(name, "an RFC 3339 time");
  }
  const auto when = mail::parse_rfc3339(it->get_ref<const std::string&>());
  if (!when) {
    return wrong(name,
                 fmt::format("an RFC 3339 time: \"{}\"", text::cap_for_echo(it->get<std::string>(), 60)));
  }
  return std::optional<mail::UnixMillis>(*when);
}

Result<mail::UnixMillis> RecordFields::time(const std::string& name) const
{
  TRY_ASSIGN(std::optional<mail::UnixMillis> when, optional_time(name));
  if (!when) {
    return missing(name);
  }
  return *when;
}

} // namespace mailroom::render::detail
