// mailroom migrate: brings the store to this build's schema, including the migrations that rewrite
// rows (contract, "Migrations"). Every other command runs only the additive ones and, on a store
// that needs a rewriting one, exits 5 with "run 'mailroom migrate'" (the hook stays silent). The
// work is the provider's own, done when it opens the store for Access::migrate: in one transaction
// under the write lock, so an interrupted migrate leaves the store as it was. Running it again on
// a current store changes nothing (ops/migrate.hpp).

#include "ops/migrate.hpp"
#include "cli/commands.hpp"
#include "cli/support.hpp"

namespace mailroom::cli {

namespace {

Result<ExitCode> run_migrate(Context& ctx)
{
  TRY_ASSIGN(const ops::MigrateResult result, ops::migrate(ctx.session, ops::MigrateRequest{}));
  TRY(print_result(ctx, result));
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
