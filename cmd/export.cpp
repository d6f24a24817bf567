// mailroom export: the whole store (or the mail since a time) as JSON Lines on standard output, in
// the format of docs/export-format.md.

#include <fmt/format.h>

#include "commands.hpp"
#include "mail/duration.hpp"
#include "render/transfer.hpp"
#include "support.hpp"
#include "text/conninfo.hpp"

namespace mailroom::cli {

namespace {

// Lines are written in blocks of about this size.
constexpr std::size_t k_flush_bytes = 1U << 20U;

struct ExportOptions {
  std::optional<std::string> since;
};

// Where the records came from, for the header: the store's path or URL, without a password.
std::string store_name(const config::Config& config)
{
  return text::redact_conninfo(config.store_path.value);
}

Result<ExitCode> run_export(Context& ctx, const ExportOptions& opts)
{
  mail::ExportRequest request;
  if (opts.since) {
    TRY_ASSIGN(request.since, mail::parse_time_or_age(*opts.since, ctx.clock.now(), "--since"));
  }
  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  std::string buffer = render::encode_header({render::k_export_format_version, ctx.clock.now(), store_name(ctx.config)});
  TRY(provider->export_records(request, [&](const mail::Record& record) -> Result<void> {
    buffer += render::encode_record(record);
    if (buffer.size() >= k_flush_bytes) {
      TRY(write_data(ctx, buffer)); // JSON Lines dumped by render::dump_json
      buffer.clear();
    }
    return {};
  }));
  TRY(write_data(ctx, buffer));
  return ExitCode::ok;
}

} // namespace

void register_export(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<ExportOptions>();
  command.add_option("--since", opts->since, "only messages (and their deliveries) sent since: a duration ago or a time")
      ->type_name("DUR|TIME");
  command.footer("Examples:\n  mailroom export > mail.jsonl\n  mailroom export --since 7d | gzip > week.jsonl.gz\n"
                 "The format is described in docs/export-format.md.");
  inv.on_select(command, [opts](Context& ctx) { return run_export(ctx, *opts); });
}

} // namespace mailroom::cli
