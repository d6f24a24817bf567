#pragma once

// The export format (docs/export-format.md): JSON Lines, a header line, then one object per
// record, each with a "kind". Times are RFC 3339 UTC with milliseconds; a text field whose bytes
// are not valid UTF-8 is written as "<name>_b64" (base64) instead of "<name>", so every byte
// survives. Keys keep one fixed order, so the same records always give the same bytes.

#include <string>
#include <string_view>
#include <variant>

#include "base/result.hpp"
#include "mail/transfer.hpp"

namespace mailroom::render {

// The version of the export format this build writes and reads.
inline constexpr int k_export_format_version = 1;

struct ExportHeader {
  int schema_version = k_export_format_version;
  mail::UnixMillis exported_at = 0;
  std::string store; // where it came from (a path, or host:port/db), for people
};

// {"kind":"header","schema_version":1,"exported_at":…,"store":…} and '\n'.
std::string encode_header(const ExportHeader& header);

// One record as one line and '\n'.
std::string encode_record(const mail::Record& record);

using ExportLine = std::variant<ExportHeader, mail::Record>;

// Decodes one line (without its '\n'). Unknown keys are ignored (later versions only add keys).
// Errors: usage saying what is wrong — not JSON, not an object, an unknown "kind", a missing or
// mistyped field, a time that is not RFC 3339, base64 that is not canonical, a header written by
// a newer format; the caller names the line.
Result<ExportLine> decode_line(std::string_view line);

} // namespace mailroom::render
