#pragma once

// CLI11's parse errors in the contract's style (contract "Errors"): one lower-case line, user
// values quoted, a did-you-mean for an unknown option.

#include <string>
#include <utility>

#include <CLI/CLI.hpp>

#include "base/result.hpp"

namespace mailroom::cli {

// The parsed chain below the root: ("agents add", leaf App).
std::pair<std::string, const CLI::App*> selected(const CLI::App& app);

// `e` as a usage error; `leaf` is the (sub)command being parsed, for option suggestions.
Error parse_error_to_error(const CLI::ParseError& e, const CLI::App* leaf);

} // namespace mailroom::cli
