#pragma once

// The --for option of the per-recipient actions (read, mark-read, mark-unread, archive,
// unarchive, delete, ack). Whose delivery they change is decided in ops/acting.hpp.

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/context.hpp"
#include "ops/acting.hpp"

namespace mailroom::cli {

// Adds `--for NAME` to `command`.
void add_for_option(CLI::App& command, std::optional<std::string>& name);

} // namespace mailroom::cli
