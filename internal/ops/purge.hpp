#pragma once

// purge: deletes the mail every recipient archived long ago, and mail that expired long ago
// (contract "Retention"). Idempotency keys are kept.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "mail/provider.hpp"
#include "render/table.hpp"
#include "session.hpp"

namespace mailroom::ops {

struct PurgeRequest {
  bool archived = false;                 // required: what purge deletes is archived (or expired) mail
  std::optional<std::string> older_than; // required: a duration ("30d")
  bool dry_run = false;                  // only count
};

struct PurgeResult {
  mail::PurgeReport report;
  mail::Millis older_than = 0;
};

// Errors: usage (a flag missing, a bad duration); the store's, a full disk's (`no_space`) with a
// hint saying how much room a purge of this store needs.
Result<PurgeResult> purge(Session& session, const PurgeRequest& request);

// {"schema_version":1,"ok":true,"dry_run","messages","deliveries"}
nlohmann::json to_json(const PurgeResult& result);
// "Purged N message(s) archived or expired more than DUR ago\n" ("Would purge" for a dry run).
text::DisplayText to_text(const PurgeResult& result, const render::Style& style);
nlohmann::json purge_output_schema();

} // namespace mailroom::ops
