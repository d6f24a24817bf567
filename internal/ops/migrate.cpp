#include "migrate.hpp"

#include "config/config.hpp"
#include "render/json.hpp"
#include "schema.hpp"
#include "text/conninfo.hpp"
#include "text/sanitize.hpp"

namespace mailroom::ops {

Result<MigrateResult> migrate(Session& session, const MigrateRequest& /*request*/)
{
  TRY_ASSIGN(const mail::ProviderSettings settings, config::provider_settings(session.config));
  MigrateResult result;
  result.has_store = settings.kind != "exec";
  if (result.has_store) {
    TRY(session.provider()); // opened for Access::migrate: that migrates
  }
  result.store = result.has_store ? text::redact_conninfo(session.config.store_path.value)
                                  : std::string("(exec provider: no store)");
  return result;
}

nlohmann::json to_json(const MigrateResult& result)
{
  nlohmann::json doc = render::json_document();
  doc["ok"] = true;
  doc["store"] = result.store;
  return doc;
}

text::DisplayText to_text(const MigrateResult& result, const render::Style& /*style*/)
{
  if (!result.has_store) {
    return text::DisplayText{"Nothing to migrate: the exec provider has no store\n"};
  }
  return text::DisplayText::format("Store {} is at this mailroom's schema\n",
                                   text::sanitize_line(result.store));
}

nlohmann::json migrate_output_schema()
{
  using namespace schema;
  return document({{"ok", boolean()}, {"store", string()}});
}

} // namespace mailroom::ops
