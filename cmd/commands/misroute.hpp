#pragma once

// The checks that keep a send or reply from reaching the wrong place or losing its body (contract
// "What reaches an agent": no silent misroutes, compose checks first).

#include <chrono>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "cli/context.hpp"
#include "mail/provider.hpp"

namespace mailroom::cli {

// How long `-s` alone waits for data on a piped standard input before sending subject-only.
inline constexpr std::chrono::milliseconds k_stdin_data_wait{50};

// `-s` with no body: a complete subject-only message, unless standard input is a pipe or a file
// with bytes readable within k_stdin_data_wait, which would be a body silently dropped. Reads
// nothing. Errors: usage ("standard input has data but -s alone is a complete message").
Result<void> refuse_unread_stdin(Context& ctx);

// ops::check_recipients and ops::check_reply (ops/send_checks.hpp) with the command's session:
// asked before the editor opens.
Result<void> check_recipients(Context& ctx, const std::vector<std::string>& to,
                              const std::vector<std::string>& cc);

Result<void> check_reply(Context& ctx, const std::string& id, bool reply_all, bool confirmed);

} // namespace mailroom::cli
