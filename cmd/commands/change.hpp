#pragma once

// The per-id state changes (archive, unarchive, delete, mark-read, mark-unread, and ack) share one
// loop (contract "Multi-id actions").

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/exit_code.hpp"
#include "cli/context.hpp"
#include "mail/provider.hpp"
#include "text/display.hpp"

namespace mailroom::cli {

// Human lines, each with one `{}` for the (sanitised) id; patterns are checked at compile time.
struct ChangeWording {
  fmt::format_string<const text::DisplayText&> changed; // "Archived message {}"
  fmt::format_string<const text::DisplayText&> already; // "Already archived {}"
};

// Applies `change` for the caller to each of `ids` in order and reports each.
// One id: its line (`Archived message <id>` / `Already archived <id>`), or its error as usual.
// Several ids: every id is tried; a line per id on stdout for those done or already done, one
// error line per failed id on stderr (`mailroom archive: <id>: <what went wrong>`); the exit code
// is the worst of them. A store or provider failure (exit 5) stops the loop: the ids after it
// are reported failed with the same code, untried. With --json, one object at the end:
// {"ok": <nothing failed>, "ids": [changed], "already": [...], "failed": [{"id","code"}]}.
// When standard output goes away after something changed, that is exit 5 naming what changed.
// Errors: usage (`missing message ID`); with one id, the provider's error for it.
// `for_name` is --for (acting.hpp): whose delivery changes. A change done as an archive instead
// (ChangeOutcome::archived_instead) counts as changed, with a `delete_as_archive` warning.
Result<ExitCode> run_change(Context& ctx, const std::vector<std::string>& ids, mail::Change change,
                            ChangeWording wording, const std::optional<std::string>& for_name = {});

} // namespace mailroom::cli
