#pragma once

// migrate: brings the store to this build's schema, including the migrations that rewrite rows
// (contract, "Migrations"). The work is the provider's own, done when it opens the store for
// Access::migrate (the surface opens it so): in one transaction under the write lock, so an
// interrupted migrate leaves the store as it was. On a current store it changes nothing.

#include <string>

#include <nlohmann/json.hpp>

#include "render/table.hpp"
#include "session.hpp"

namespace mailroom::ops {

struct MigrateRequest {};

struct MigrateResult {
  bool has_store = true; // false: the exec provider, which has no store
  std::string store;     // where it is, without a password; "(exec provider: no store)"
};

// Errors: the configuration's, the store's open errors (a migration that failed).
Result<MigrateResult> migrate(Session& session, const MigrateRequest& request);

// {"schema_version":1,"ok":true,"store"}
nlohmann::json to_json(const MigrateResult& result);
// "Store S is at this mailroom's schema\n", or that the exec provider has nothing to migrate.
text::DisplayText to_text(const MigrateResult& result, const render::Style& style);
nlohmann::json migrate_output_schema();

} // namespace mailroom::ops
