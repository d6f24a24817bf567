#pragma once

// export and purge: the store's records out as JSON Lines (docs/export-format.md), and mail every
// recipient archived (or that expired) long ago deleted. (import is cmd/import.cpp's until it is
// converted.)

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "mail/provider.hpp"
#include "render/table.hpp"
#include "session.hpp"

namespace mailroom::ops {

struct ExportRequest {
  std::optional<std::string>
      since; // only messages (and their deliveries) sent since: a duration ago or a time
};

// Takes the export's bytes as they are made, in blocks of about 1 MiB: JSON Lines dumped by
// nlohmann (safe by construction), the header line first.
using ExportSink = std::function<Result<void>(std::string_view bytes)>;

// Errors: usage (a bad since), the provider's, the sink's.
Result<void> export_records(Session& session, const ExportRequest& request, const ExportSink& sink);

struct PurgeRequest {
  bool archived = false;                 // required: what purge deletes
  std::optional<std::string> older_than; // required: a duration
  bool dry_run = false;                  // only count what would be deleted
};

struct PurgeResult {
  mail::PurgeReport report;
  mail::Millis older_than = 0;
};

// Errors: usage (archived or older_than missing, a bad duration), the provider's; on a full disk
// the store's no_space error with a hint saying how much room a purge needs and what to run then.
Result<PurgeResult> purge(Session& session, const PurgeRequest& request);

// {"schema_version":1,"ok":true,"dry_run","messages","deliveries"}
nlohmann::json to_json(const PurgeResult& result);
text::DisplayText to_text(const PurgeResult& result, const render::Style& style);
nlohmann::json purge_output_schema();

} // namespace mailroom::ops
