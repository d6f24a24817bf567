#pragma once

// The per-id state changes (archive, unarchive, delete, mark-read, mark-unread) share one loop.

#include <string>
#include <string_view>
#include <vector>

#include "context.hpp"
#include "base/exit_code.hpp"
#include "mail/provider.hpp"

namespace mailroom::cli {



// Human lines, each with one `{}` for the id.
struct ChangeWording {
  std::string_view changed; // "Archived message {}"
  std::string_view already; // "Already archived {}"
};

// Applies `change` for the caller to each of `ids` in order, printing one line per id (or, with
// --json, {"ok","ids","already"} at the end). Stops at the first error and returns it; earlier
// changes stay. Errors: usage (`missing message ID`), the provider's not_found, not_recipient, ...
Result<ExitCode> run_change(Context& ctx, const std::vector<std::string>& ids, mail::Change change,
                            ChangeWording wording);

} // namespace mailroom::cli
