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

private:
  const Json& m_object;
  std::string_view m_kind;
};

} // namespace mailroom::render::detail
