#pragma once

// Pieces send and reply share on the command line: body sources and priority flags. Sending is
// ops/send.hpp.

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/context.hpp"
#include "ops/send.hpp"

#include "base/result.hpp"

namespace mailroom::cli {

struct BodySource {
  bool stdin_body = false;              // --stdin
  std::optional<std::string> body_file; // --body-file PATH
};

// Adds --stdin and --body-file bound to `source`.
void add_body_options(CLI::App& command, BodySource& source);

// The body from exactly one of `inline_body` (a positional or -m; "-" means stdin), --stdin and
// --body-file; nullopt when none was given. Errors: usage when two sources are given, when the
// file cannot be read, when standard input (--stdin or "-") is empty, or when the body exceeds
// the size cap.
Result<std::optional<std::string>> read_body(Context& ctx, const BodySource& source,
                                             const std::optional<std::string>& inline_body);

// Adds --priority and --urgent bound to `sending`.
void add_priority_options(CLI::App& command, ops::Sending& sending);

} // namespace mailroom::cli
