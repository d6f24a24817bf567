// mailroom purge: deletes the mail every recipient archived long ago, and mail that expired long
// ago. Idempotency keys are kept.

#include <sys/stat.h>

#include <fmt/format.h>

#include "commands.hpp"
#include "mail/duration.hpp"
#include "render/json.hpp"
#include "support.hpp"
#include "text/sanitize.hpp"

namespace mailroom::cli {

namespace {

struct PurgeOptions {
  bool archived = false;
  std::optional<std::string> older_than;
  bool dry_run = false;
};

// A purge on a full disk cannot start: SQLite writes every page it changes to the write-ahead log
// before the database, and the log needs room. The hint says exactly how much room is enough: the
// store's size plus a frame header per page (a transaction writes each page to the log once at
// most, and a purge adds no page), and what to run then.
Error no_space_for_purge(const Context& ctx, const PurgeOptions& opts, Error error)
{
  constexpr unsigned long long k_page = 4096;
  constexpr unsigned long long k_frame_header = 24;
  constexpr unsigned long long k_wal_header = 32;
  struct stat info {};
  if (::stat(ctx.config.store_path.value.c_str(), &info) != 0 || info.st_size <= 0) {
    return error;
  }
  const auto size = static_cast<unsigned long long>(info.st_size);
  const unsigned long long need = size + (size + k_page - 1) / k_page * k_frame_header + k_wal_header;
  error.hint =
      fmt::format("free {} KiB on the store's filesystem (its size plus the log's frame headers: the most "
                  "a purge can write to the write-ahead log), then run 'mailroom purge --archived "
                  "--older-than {}' again; the space it frees inside the store is reused by new mail",
                  (need + 1023) / 1024, *opts.older_than);
  return error;
}

Result<ExitCode> run_purge(Context& ctx, const PurgeOptions& opts)
{
  if (!opts.archived) {
    return usage_error("purge needs --archived", "purge --archived --older-than 30d deletes mail archived (or "
                                                 "expired) more than 30 days ago");
  }
  if (!opts.older_than) {
    return usage_error("purge needs --older-than DUR", "e.g. purge --archived --older-than 30d");
  }
  mail::PurgeRequest request;
  TRY_ASSIGN(request.older_than, mail::parse_duration(*opts.older_than, "--older-than"));
  request.dry_run = opts.dry_run;
  TRY_ASSIGN(mail::Provider * provider, ctx.provider());
  auto purged = provider->purge(request);
  if (!purged.ok()) {
    Error error = std::move(purged).error();
    return error.reason == "no_space" ? no_space_for_purge(ctx, opts, std::move(error)) : error;
  }
  const mail::PurgeReport& report = *purged;
  if (ctx.json) {
    nlohmann::json doc = render::json_document();
    doc["ok"] = true;
    doc["dry_run"] = report.dry_run;
    doc["messages"] = report.messages;
    doc["deliveries"] = report.deliveries;
    TRY(write_json(ctx, doc));
  } else {
    TRY(write_text(ctx,
                   text::DisplayText::format(
                       "{} {} message(s) archived or expired more than {} ago\n",
                       report.dry_run ? text::DisplayText("Would purge") : text::DisplayText("Purged"),
                       report.messages, text::sanitize_line(mail::format_duration(request.older_than)))));
  }
  return ExitCode::ok;
}

} // namespace

void register_purge(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<PurgeOptions>();
  command.add_flag("--archived", opts->archived, "delete messages every recipient archived (and expired ones)");
  command.add_option("--older-than", opts->older_than, "only those archived or expired longer ago than this")
      ->type_name("DUR");
  command.add_flag("--dry-run", opts->dry_run, "only count what would be deleted");
  command.footer("Examples:\n  mailroom purge --archived --older-than 30d --dry-run\n"
                 "  mailroom purge --archived --older-than 90d");
  inv.on_select(command, [opts](Context& ctx) { return run_purge(ctx, *opts); });
}

} // namespace mailroom::cli
