#pragma once

// The list commands' (inbox, sent, search) shared options: the filter flags and the limit. What
// they mean is decided in ops/filters.hpp.

#include <CLI/CLI.hpp>

#include "cli/context.hpp"
#include "ops/filters.hpp"

namespace mailroom::cli {

// The contract's filter flags, as typed.
using FilterOptions = ops::FilterRequest;
// --from, --to, --type (repeatable), --priority, --since, --until, --unread, --archived, --thread.
void add_filter_options(CLI::App& command, FilterOptions& opts);

// -n/--limit N and --no-limit, shared by the lists.
using LimitOptions = ops::LimitRequest;
void add_limit_options(CLI::App& command, LimitOptions& opts);

// ops::mailbox_flag, for wait and watch.
using ops::mailbox_flag;

} // namespace mailroom::cli
