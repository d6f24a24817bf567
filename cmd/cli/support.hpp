#pragma once

// Small helpers shared by the command files: writing text and JSON, usage errors, id checks and
// reading a message body from a file.
//
// The output gate on stdout (docs/output-safety.md): human and agent text reaches stdout only
// through write_text, which takes text::DisplayText and nothing else, so it cannot have skipped
// the sanitiser. Machine output goes through write_json, or write_data for bytes the program
// generates in a safe form (JSON from nlohmann, shell scripts).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/exit_code.hpp"
#include "base/result.hpp"
#include "context.hpp"
#include "mail/message.hpp"
#include "ops/acting.hpp"
#include "text/display.hpp"
#include "text/strings.hpp"

namespace mailroom::cli {

// A usage error (exit 2) with an optional hint.
Error usage_error(std::string message, std::string hint = {});

// Writes `text` (display text: sanitised, a literal, or formatted from those) to stdout.
// Errors: the Output's write error.
Result<void> write_text(Context& ctx, const text::DisplayText& text);
// Raw strings are not display text: sanitise them (text/sanitize.hpp) or build a DisplayText.
// These stop a string, string_view or C string from reaching stdout through write_text.
Result<void> write_text(Context& ctx, std::string_view text) = delete;
Result<void> write_text(Context& ctx, const std::string& text) = delete;
Result<void> write_text(Context& ctx, const char* text) = delete;

// Writes `bytes` to stdout as they are, for machine output that is not display text. Only for
// bytes that are safe by construction: JSON documents and JSON Lines dumped by nlohmann (which
// escapes control characters), the shell completion scripts the program writes
// itself, and the coding agents' hook JSON. Never for text that holds stored or user input
// outside such a JSON string. Errors: the Output's write error.
Result<void> write_data(Context& ctx, std::string_view bytes);

// Writes `doc` as one line of JSON to stdout.
Result<void> write_json(Context& ctx, const nlohmann::json& doc);

// Writes an operation's result: its to_json under --json, else its to_text (found by ADL in ops/);
// an empty text writes nothing.
template <typename R> Result<void> print_result(Context& ctx, const R& result)
{
  if (ctx.json) {
    return write_json(ctx, to_json(result));
  }
  const text::DisplayText text = to_text(result, ctx.style());
  if (text.empty()) {
    return {};
  }
  return write_text(ctx, text);
}

// Gas City's `missing message ID` when `ids` is empty; otherwise nothing.
using ops::require_ids;

// The whole file at `path`, at most `cap` bytes. Errors: usage naming the file when it cannot be
// read or is too large.
Result<std::string> read_body_file(const std::string& path, std::size_t cap);

// "a, b, c": the one join (text/strings.hpp), named here for the command files.
using text::join;

// `text` in bold when colour is on (text::styled), else `text`.
text::DisplayText bold(const Context& ctx, const text::DisplayText& text);

// Prints `error` the one way errors are printed: `mailroom <command>: <message>` and an optional
// `hint: ...` line, or the contract's JSON error object when `json`; on stderr.
void report_error(Output& out, std::string_view command, const Error& error, bool json);

// Prints a warning on stderr: `mailroom <command>: warning: <message>`, or under --json one line
// {"schema_version":1,"warning":{"code":<code>,"message":<message>}}. `code` is a stable
// snake_case name ("notify_failed").
void warn(Context& ctx, std::string_view code, std::string_view message);

// Prints an operation's notice on stderr: `acting for NAME` as `mailroom <command>: acting for
// NAME`, anything else as a warning (warn); under --json as warn's JSON line.
void print_notice(Context& ctx, const ops::Notice& notice);

} // namespace mailroom::cli

namespace mailroom::cli {

// The mailbox a listing command (inbox, count, check) is about: `mailbox` when given (it must be a
// mailbox, not @all or a group), else the caller. Naming another mailbox makes the command a view
// of it: it records no presence (ctx.presence is cleared). Errors: invalid_recipient, usage.
Result<mail::Mailbox> inbox_target(Context& ctx, const std::optional<std::string>& mailbox);

} // namespace mailroom::cli
