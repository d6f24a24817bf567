#pragma once

// Filtered archive: `archive --to NAME | --all-recipients` with gc's filters (contract "Gas City,
// round 4"; gascity PR 2595), for the floods of repeated notifications an operator clears at once.
//
// gc's rules, with mailroom's exit codes (usage, exit 2): no message ids beside the filters;
// exactly one of --to and --all-recipients; at least one of --from, --subject-prefix and
// --subject-contains (mail::ArchiveFilter::has_content_filter); --limit above zero (default 100).
// The deliveries taken are those of NAME (every mailbox's with --all-recipients) that are not
// archived, unread ones only unless --include-read, whose message passes the filter, in order
// (NAME's inbox order; every mailbox's oldest first), at most --limit of them. Each is archived
// for its recipient, acting as the caller (the store records acted_by when they differ), one
// change at a time as ops::change does: a store or provider failure (exit 5) stops the rest,
// reported failed. --dry-run lists them and changes nothing.
//
// On a store without the views facet (exec), --to lists NAME's mail through the provider (`inbox`,
// or `all` with --include-read) and archives by id; --all-recipients is unsupported there (no op
// lists every mailbox).

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "change.hpp"
#include "mail/archive_filter.hpp"
#include "mail/views.hpp"
#include "render/table.hpp"
#include "session.hpp"

namespace mailroom::ops {

struct ArchiveMatchRequest {
  std::vector<std::string> ids; // must be empty: gc refuses ids beside filters
  std::optional<std::string> to;
  bool all_recipients = false;
  mail::ArchiveFilter filter;
  bool include_read = false;
  std::optional<std::string> limit; // as typed; default k_default_archive_limit
  bool dry_run = false;

  // Whether any of the options of a filtered archive is given (the CLI then runs this instead of
  // the per-id archive; gc's hasSelector, plus --limit, which is never silently ignored).
  bool selects() const;
};

inline constexpr std::size_t k_default_archive_limit = 100;

struct ArchiveMatchResult {
  bool dry_run = false;
  bool all_recipients = false;
  std::vector<mail::OpenDelivery> matches; // taken (at most the limit), in order
  // What archiving each match did (aligned with `matches`; nullopt: it failed, or was not tried
  // after a failure that stopped the rest), empty for a dry run; and the same as ops::change
  // reports it (ids, already, failed, the worst exit code).
  std::vector<std::optional<mail::ChangeOutcome>> outcomes;
  ChangeResult changes;
};

// Errors: usage (gc's rules above, a bad limit, a --to or --from that is no mailbox), unsupported
// (--all-recipients without the views facet), the provider's errors while listing.
Result<ArchiveMatchResult> archive_matching(Session& session, const ArchiveMatchRequest& request);

// {"schema_version":1,"ok":<nothing failed>,"dry_run","matches":[{"id","recipient","from",
// "subject"}],"ids":[archived],"already":[…],"failed":[{"id","code"}]}
nlohmann::json to_json(const ArchiveMatchResult& result);
// `Archived message <id>` (`… for <recipient>` with --all-recipients) per delivery archived,
// `Already archived <id>` per one archived meanwhile, `No matching messages` when none matched;
// a dry run `Would archive message <id>\t<subject>` per match. Failures are the caller's to print
// (ArchiveMatchResult::changes.failed).
text::DisplayText to_text(const ArchiveMatchResult& result, const render::Style& style);
nlohmann::json archive_matching_output_schema();

} // namespace mailroom::ops
