#pragma once

// Shell completion scripts generated from the parser's own description (cli_model.hpp).

#include <optional>
#include <string>
#include <string_view>

#include "cli_model.hpp"

namespace mailroom::cli {

// The completion script for `shell` ("bash", "zsh" or "fish"), or nullopt for another shell.
// Completes commands, subcommands (and their aliases), every option, option values with fixed
// choices, files for PATH values, mailbox names (from `mailroom agents`) for NAME/ADDR values and
// message ids (from `mailroom inbox --all`) for commands that take ids.
std::optional<std::string> completion_script(const CliModel& model, std::string_view shell);

} // namespace mailroom::cli
