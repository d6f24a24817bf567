// mailroom archive: archive for the caller only; reversible with unarchive. With gc's filters
// (--to/--all-recipients and --from/--subject-prefix/--subject-contains), a bounded slice of a
// mailbox's matching mail at once (ops/archive_matching.hpp).

#include <fmt/format.h>

#include "acting.hpp"
#include "change.hpp"
#include "cli/commands.hpp"
#include "cli/support.hpp"
#include "ops/archive_matching.hpp"
#include "text/sanitize.hpp"

namespace mailroom::cli {

namespace {

struct ArchiveOptions {
  std::vector<std::string> ids;
  std::optional<std::string> for_name; // --for
  ops::ArchiveMatchRequest matching;   // the filters
};

Result<ExitCode> run_matching(Context& ctx, ops::ArchiveMatchRequest request)
{
  TRY_ASSIGN(const ops::ArchiveMatchResult result, ops::archive_matching(ctx.session, request));
  if (ctx.json) {
    TRY(ops::after_change(result.changes, write_json(ctx, ops::to_json(result))));
    return result.changes.worst;
  }
  TRY(ops::after_change(result.changes, write_text(ctx, ops::to_text(result, ctx.style()))));
  for (const ops::ChangeFailure& failure : result.changes.failed) {
    ctx.out.err(fmt::format("mailroom {}: {}: {}\n", ctx.command, text::sanitize_line(failure.id).str(),
                            text::sanitize_line(failure.error.message).str()));
  }
  return result.changes.worst;
}

Result<ExitCode> run_archive(Context& ctx, const ArchiveOptions& opts)
{
  if (opts.matching.selects()) {
    if (opts.for_name) {
      return usage_error("--for cannot be combined with archive filters", "name the mailbox with --to");
    }
    ops::ArchiveMatchRequest request = opts.matching;
    request.ids = opts.ids;
    return run_matching(ctx, std::move(request));
  }
  return run_change(ctx, opts.ids, mail::Change::archive, {"Archived message {}", "Already archived {}"},
                    opts.for_name);
}

} // namespace

void register_archive(CLI::App& command, Invocation& inv)
{
  auto opts = std::make_shared<ArchiveOptions>();
  ops::ArchiveMatchRequest& m = opts->matching;
  command.add_option("ids", opts->ids, "message IDs");
  add_for_option(command, opts->for_name);
  command.add_option("--to", m.to, "filters: archive matching mail addressed to this mailbox")
      ->type_name("NAME");
  command.add_flag("--all-recipients", m.all_recipients, "filters: archive matching mail of every mailbox");
  command.add_option("--from", m.filter.from, "filters: only mail from this exact sender")->type_name("NAME");
  command
      .add_option("--subject-prefix", m.filter.subject_prefix, "filters: only subjects starting with TEXT")
      ->type_name("TEXT");
  command
      .add_option("--subject-contains", m.filter.subject_contains, "filters: only subjects containing TEXT")
      ->type_name("TEXT");
  command.add_flag("--empty-body", m.filter.empty_body, "filters: only messages whose body is empty");
  command.add_flag("--include-read", m.include_read, "filters: read mail too (default: unread only)");
  command.add_option("--limit", m.limit, "filters: archive at most N messages (default 100)")->type_name("N");
  command.add_flag("--dry-run", m.dry_run, "filters: list what would be archived, change nothing");
  command.footer("Examples:\n  mailroom archive mr-a1b2c3 mr-d4e5f6\n"
                 "  mailroom archive --to mayor --from patrol --subject-prefix \"disk\" --dry-run");
  inv.on_select(command, [opts](Context& ctx) { return run_archive(ctx, *opts); });
}

} // namespace mailroom::cli
