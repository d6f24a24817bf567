#pragma once

// Reading the fields of one export record (render/transfer.cpp's decoder): each getter checks the
// field's JSON type and answers usage naming the record kind and the field when it is missing or
// mistyped. A text field may come as "<name>" or as "<name>_b64" (base64 of bytes that are not
// valid UTF-8).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "mail/message.hpp"
#include "mail/transfer.hpp"

namespace mailroom::render::detail {

class RecordFields {
public:
  using Json = nlohmann::ordered_json;

  RecordFields(const Json& object, std::string_view kind) : m_object(object), m_kind(kind) {}

  // "<kind> record has no \"<name>\"".
  Error missing(std::string_view name) const;
  // "<kind> record: \"<name>\" is not <expected>".
  Error wrong(std::string_view name, std::string_view expected) const;

  // True when the record has the key `name` (null or not): older exports lack newer keys.
  bool has(const std::string& name) const { return m_object.contains(name); }
  // A text field, given as "<name>" or as "<name>_b64"; nullopt when absent or null.
  Result<std::optional<std::string>> optional_text(const std::string& name) const;
  // As optional_text, but absent is missing().
  Result<std::string> text(const std::string& name) const;
  // An array of strings; absent is missing().
  Result<std::vector<std::string>> names(const std::string& name) const;
  // An integer; absent is missing().
  Result<std::int64_t> integer(const std::string& name) const;
  // An RFC 3339 time; nullopt when absent or null.
  Result<std::optional<mail::UnixMillis>> optional_time(const std::string& name) const;
  // As optional_time, but absent is missing().
  Result<mail::UnixMillis> time(const std::string& name) const;

  // An integer; nullopt when null (absent is missing()).
  Result<std::optional<std::int64_t>> optional_integer(const std::string& name) const;
  // A boolean; absent is missing().
  Result<bool> flag(const std::string& name) const;

private:
  const Json& m_object;
  std::string_view m_kind;
};

// Writing fields: "<name>" for valid UTF-8, else "<name>_b64"; null for absent values.
void put_text(nlohmann::ordered_json& j, const std::string& name, const std::string& value);
void put_optional_text(nlohmann::ordered_json& j, const std::string& name,
                       const std::optional<std::string>& value);
nlohmann::ordered_json time_value(const std::optional<mail::UnixMillis>& when);
nlohmann::ordered_json names(const std::vector<std::string>& list);

// The schedule kinds (transfer_schedules.cpp).
nlohmann::ordered_json encode_schedule_record(const mail::ScheduleRecord& record);
nlohmann::ordered_json encode_schedule_record(const mail::FiringRecord& record);
Result<mail::Record> decode_schedule(const RecordFields& fields);
Result<mail::Record> decode_firing(const RecordFields& fields);

// The wake kinds (transfer_wake.cpp).
nlohmann::ordered_json encode_wake_record(const mail::WakeTargetRecord& record);
nlohmann::ordered_json encode_wake_record(const mail::WakeRecord& record);
Result<mail::Record> decode_wake_target(const RecordFields& fields);
Result<mail::Record> decode_wake(const RecordFields& fields);

} // namespace mailroom::render::detail
