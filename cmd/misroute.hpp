#pragma once

// The checks that keep a send or reply from reaching the wrong place or losing its body (contract
// "What reaches an agent": no silent misroutes, compose checks first).

#include <chrono>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "context.hpp"
#include "mail/provider.hpp"

namespace mailroom::cli {

// How long `-s` alone waits for data on a piped standard input before sending subject-only.
inline constexpr std::chrono::milliseconds k_stdin_data_wait{50};

// `-s` with no body: a complete subject-only message, unless standard input is a pipe or a file
// with bytes readable within k_stdin_data_wait, which would be a body silently dropped. Reads
// nothing. Errors: usage ("standard input has data but -s alone is a complete message").
Result<void> refuse_unread_stdin(Context& ctx);

// `send A B BODY`: B becomes the subject. When B names a configured group (`@ops` or `ops`),
// `@all`, or a mailbox of the registry or of [agents] names, the sender meant a second
// recipient. The registry is asked only when the provider has one. Errors: usage with the --to
// hint; the provider's errors.
Result<void> refuse_address_subject(Context& ctx, mail::Provider& provider, const std::string& recipient,
                                    const std::string& subject);

// What a send would be refused for, asked before the editor opens: the identity (opening the
// provider runs the guard), then the recipients against the registry (or shapes only without
// one). Errors: as resolve_audience and the identity guard.
Result<void> check_recipients(Context& ctx, const std::vector<std::string>& to,
                              const std::vector<std::string>& cc);

// What a reply would be refused for, asked before the editor opens: the identity, the id, and
// that `ctx.me` may reply to that message (reply_audience). Errors: not_found, ambiguous_id,
// not_recipient, usage (reply --all over the confirmation limit).
Result<void> check_reply(Context& ctx, const std::string& id, bool reply_all, bool confirmed);

} // namespace mailroom::cli
