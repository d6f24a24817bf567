#pragma once

// What decline, ask and fail share: a request's id, the text of the answer and --for, run through
// ops::respond and printed (cmd/commands/decline.cpp, ask.cpp, fail.cpp).

#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "mail/request.hpp"

namespace mailroom::cli {

struct RespondOptions {
  std::vector<std::string> positionals; // <id> [<text>...]
  std::optional<std::string> reason;    // --reason (decline, fail)
  std::optional<std::string> for_name;  // --for
};

// Registers `<id>`, --reason TEXT (unless the verb is ask, whose words after the id are the
// question) and --for on `command`, and its runner.
void register_respond(CLI::App& command, Invocation& inv, mail::RequestVerb verb);

} // namespace mailroom::cli
