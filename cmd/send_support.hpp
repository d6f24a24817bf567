#pragma once

// Pieces send and reply share: body sources, priority flags, idempotency keys, and sending through
// providers with or without multi-recipient messages.

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "context.hpp"
#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "mail/ids.hpp"
#include "mail/message.hpp"
#include "mail/provider.hpp"
#include "text/display.hpp"

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

struct PriorityOptions {
  std::optional<std::string> priority; // --priority
  bool urgent = false;                 // --urgent
};

// Adds --priority and --urgent bound to `options`.
void add_priority_options(CLI::App& command, PriorityOptions& options);

// The priority the flags ask for (normal by default). Errors: usage for an unknown value or
// --urgent with a different --priority.
Result<mail::Priority> resolve_priority(const PriorityOptions& options);

// `flag`, else $MAILROOM_IDEMPOTENCY_KEY, else nullopt. Errors: usage when longer than the cap.
Result<std::optional<std::string>> resolve_idempotency_key(Context& ctx, const std::optional<std::string>& flag);

// Sends `request`: once when the provider stores multi-recipient messages; otherwise the
// addresses are expanded here (mail::resolve_audience without a registry) and sent once per
// recipient, stopping at the first failure and saying which copies were stored.
// Errors: the provider's; unsupported for @all or --cc without multi-recipient support.
Result<std::vector<mail::SendReceipt>> send_all(Context& ctx, mail::Provider& provider,
                                                const mail::SendRequest& request);

// "@all (499 mailboxes)", "@ops (3 mailboxes), bob" or "alice, bob": who a message went to, as its
// sender addressed it.
// Names are sanitised (Sink::terminal_line).
text::DisplayText recipients_summary(const mail::Message& message,
                                     const std::vector<mail::Mailbox>& recipients);

// The send JSON document for `receipts`: {"schema_version":1,"ok":true,"id","thread_id",
// "recipients","ids","replayed"}.
nlohmann::json receipts_json(const std::vector<mail::SendReceipt>& receipts);

// The parent trace a send joins: --trace `flag` (a traceparent, or a message id or prefix whose
// trace it joins as a child of that message), else $TRACEPARENT (invalid: a warning, ignored),
// else none. Errors: usage for a malformed `flag` that is no message id, not_found.
Result<std::optional<mail::TraceParent>> resolve_trace_parent(Context& ctx, mail::Provider& provider,
                                                              const std::optional<std::string>& flag);

// Prints `Sent message <id> to <a, b>` per receipt (`Already sent message … (idempotency key K)` for
// a replay), or one JSON document for all of them. Errors:
// store_error naming the stored ids when standard output cannot be written.
Result<void> print_receipts(Context& ctx, const std::vector<mail::SendReceipt>& receipts,
                            const std::optional<std::string>& key);

} // namespace mailroom::cli
