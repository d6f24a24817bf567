// mailroom import: reads an export (a file, or standard input) into this store, all or nothing
// (ops/transfer.hpp).

#include "cli/commands.hpp"
#include "cli/support.hpp"
#include "ops/transfer.hpp"

namespace mailroom::cli {

namespace {

struct ImportOptions {
  std::optional<std::string> file;
};

Result<ExitCode> run_import(Context& ctx, const ImportOptions& opts)
{
  ops::ImportRequest request;
  request.file = opts.file;
  request.read_stdin = [&ctx](char* buffer, std::size_t size) { return ctx.in.read_some(buffer, size); };
  TRY_ASSIGN(const ops::ImportResult result, ops::import_mail(ctx.session, request));
  TRY(print_result(ctx, result));
  return ExitCode::ok;
}

} // namespace

void register_import(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<ImportOptions>();
  command.add_option("file", opts->file, "an export file, or - for standard input (the default)");
  command.footer("Examples:\n  mailroom import mail.jsonl\n  gunzip -c week.jsonl.gz | mailroom import -\n"
                 "Records already in the store are skipped; a conflict or a malformed line imports nothing.");
  inv.on_select(command, [opts](Context& ctx) { return run_import(ctx, *opts); });
}

} // namespace mailroom::cli
