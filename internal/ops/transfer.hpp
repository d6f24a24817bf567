#pragma once

// export and import: the whole store (or the mail since a time) as JSON Lines in the format of
// docs/export-format.md, and such an export read back into a store, all or nothing.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "mail/transfer.hpp"
#include "render/table.hpp"
#include "session.hpp"

namespace mailroom::ops {

// Receives the export's bytes, a block of whole lines at a time.
using ExportWrite = std::function<Result<void>(std::string_view bytes)>;

struct ExportRequest {
  std::optional<std::string> since; // a duration ago or a time: only the mail sent since
};

struct ExportResult {
  std::int64_t records = 0; // written after the header
};

// Writes the header line, then every record, to `write`. Errors: usage (a bad since), the
// store's, write's (which stop the export).
Result<ExportResult> export_mail(Session& session, const ExportRequest& request, const ExportWrite& write);

// Reads up to `size` bytes into `buffer`; 0 at the end.
using ImportRead = std::function<Result<std::size_t>(char* buffer, std::size_t size)>;

struct ImportRequest {
  std::optional<std::string> file; // an export file; none or "-": `read_stdin`
  ImportRead read_stdin;
};

struct ImportResult {
  mail::ImportReport report;
};

// Errors (nothing imported): usage naming the file that cannot be read, or the line that is not
// a record of an export; conflict and usage from the store naming the line it refused; the
// store's.
Result<ImportResult> import_mail(Session& session, const ImportRequest& request);

// {"schema_version":1,"ok":true,"added","added_count","messages","skipped"}
nlohmann::json to_json(const ImportResult& result);
// "Imported N record(s) (M message(s)); K already in the store\n"
text::DisplayText to_text(const ImportResult& result, const render::Style& style);
nlohmann::json import_output_schema();

} // namespace mailroom::ops
