#pragma once

// Small helpers shared by the command files: writing text and JSON, usage errors, id checks and
// reading a message body from a file.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "context.hpp"
#include "base/exit_code.hpp"
#include "mail/message.hpp"
#include "base/result.hpp"

namespace mailroom::cli {

// A usage error (exit 2) with an optional hint.
Error usage_error(std::string message, std::string hint = {});

// Writes `text` to stdout. Errors: the Output's write error.
Result<void> write_text(Context& ctx, std::string_view text);

// Writes `doc` as one line of JSON to stdout.
Result<void> write_json(Context& ctx, const nlohmann::json& doc);

// Gas City's `missing message ID` when `ids` is empty; otherwise nothing.
Result<void> require_ids(const std::vector<std::string>& ids);

// The whole file at `path`, at most `cap` bytes. Errors: usage naming the file when it cannot be
// read or is too large.
Result<std::string> read_body_file(const std::string& path, std::size_t cap);

// "a, b, c".
std::string join(const std::vector<std::string>& parts, std::string_view separator = ", ");

// `text` in bold when colour is on.
std::string bold(const Context& ctx, std::string_view text);

// Prints `error` the one way errors are printed: `mailroom <command>: <message>` and an optional
// `hint: ...` line, or the contract's JSON error object when `json`; on stderr.
void report_error(Output& out, std::string_view command, const Error& error, bool json);

// Prints a warning on stderr: `mailroom <command>: warning: <message>`, or under --json one line
// {"schema_version":1,"warning":{"code":<code>,"message":<message>}}. `code` is a stable
// snake_case name ("notify_failed").
void warn(Context& ctx, std::string_view code, std::string_view message);

} // namespace mailroom::cli

namespace mailroom::cli {

// The mailbox a listing command (inbox, count, check) is about: `mailbox` when given (it must be a
// mailbox, not @all or a group), else the caller. Errors: invalid_recipient, usage.
Result<mail::Mailbox> inbox_target(const Context& ctx, const std::optional<std::string>& mailbox);

} // namespace mailroom::cli
