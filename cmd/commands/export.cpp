// mailroom export: the whole store (or the mail since a time) as JSON Lines on standard output, in
// the format of docs/export-format.md (ops/transfer.hpp).

#include "cli/commands.hpp"
#include "cli/support.hpp"
#include "ops/transfer.hpp"

namespace mailroom::cli {

namespace {

Result<ExitCode> run_export(Context& ctx, const ops::ExportRequest& request)
{
  // JSON Lines dumped by render::dump_json.
  TRY(ops::export_mail(ctx.session, request,
                       [&ctx](std::string_view bytes) { return write_data(ctx, bytes); }));
  return ExitCode::ok;
}

} // namespace

void register_export(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<ops::ExportRequest>();
  command
      .add_option("--since", opts->since,
                  "only messages (and their deliveries) sent since: a duration ago or a time")
      ->type_name("DUR|TIME");
  command.footer(
      "Examples:\n  mailroom export > mail.jsonl\n  mailroom export --since 7d | gzip > week.jsonl.gz\n"
      "The format is described in docs/export-format.md.");
  inv.on_select(command, [opts](Context& ctx) { return run_export(ctx, *opts); });
}

} // namespace mailroom::cli
