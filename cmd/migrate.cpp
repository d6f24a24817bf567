// mailroom migrate: brings the store to this build's schema, including the migrations that rewrite
// rows (contract, "Migrations"). Every other command runs only the additive ones and, on a store
// that needs a rewriting one, exits 5 with "run 'mailroom migrate'" (the hook stays silent). The
// work is the provider's own, done when it opens the store for Access::migrate: in one transaction
// under the write lock, so an interrupted migrate leaves the store as it was. Running it again on
// a current store changes nothing.

#include <fmt/format.h>

#include "commands.hpp"
#include "config/config.hpp"
#include "factory.hpp"
#include "render/json.hpp"
#include "support.hpp"
#include "text/conninfo.hpp"
#include "text/sanitize.hpp"

namespace mailroom::cli {

namespace {

Result<ExitCode> run_migrate(Context& ctx)
{
  TRY_ASSIGN(const mail::ProviderSettings settings, config::provider_settings(ctx.config));
  const bool has_store = settings.kind != "exec";
  if (has_store) {
    TRY(ctx.provider()); // opened for Access::migrate (commands.cpp): that migrates
  }
  const std::string store = has_store ? text::redact_conninfo(ctx.config.store_path.value)
                                      : std::string("(exec provider: no store)");
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["ok"] = true;
    doc["store"] = store;
    TRY(write_json(ctx, doc));
  } else if (has_store) {
    TRY(write_text(ctx, text::DisplayText::format("Store {} is at this mailroom's schema\n",
                                                  text::sanitize_line(store))));
  } else {
    TRY(write_text(ctx, text::DisplayText{"Nothing to migrate: the exec provider has no store\n"}));
  }
  return ExitCode::ok;
}

} // namespace

void register_migrate(CLI::App& command, Invocation& inv)
{
  command.footer("A migration that rewrites every message (moving bodies) runs only here and in `init`;\n"
                 "other commands on such a store exit 5 with \"run 'mailroom migrate'\".\n"
                 "It runs in one transaction: interrupted, the store stays as it was.\n\n"
                 "Examples:\n  mailroom migrate\n  mailroom --db old.db migrate");
  inv.on_select(command, [](Context& ctx) { return run_migrate(ctx); });
}

} // namespace mailroom::cli
