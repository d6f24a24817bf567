#pragma once

// Pieces send and reply share: body sources, priority flags, recipient expansion, size caps and
// sending through providers with or without multi-recipient messages.

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "context.hpp"
#include "config/config.hpp"
#include "mail/message.hpp"
#include "mail/provider.hpp"
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
// file cannot be read, or when the body exceeds the size cap.
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

struct Recipients {
  std::vector<mail::Mailbox> mailboxes; // in order, groups expanded, duplicates removed
  bool broadcast = false;               // @all was among them
};

// Parses each address (contract shapes) and expands config groups. Errors: invalid_recipient;
// unknown_recipient for an undefined @group (with suggestions from the defined groups).
Result<Recipients> expand_recipients(const config::Config& config, const std::vector<std::string>& addresses);

// The limits.hpp caps on subject, body, recipients and key. Errors: usage naming the cap.
Result<void> check_sizes(const mail::SendRequest& request);

// Sends `request`: once when the provider stores multi-recipient messages, otherwise once per
// recipient (to, then cc), stopping at the first failure. Errors: the provider's; unsupported for a
// broadcast without multi-recipient support; usage when there is no recipient at all.
Result<std::vector<mail::SendReceipt>> send_all(mail::Provider& provider, const mail::SendRequest& request);

// Prints `Sent message <id> to <a, b>` per receipt, or one JSON document for all of them. Errors:
// store_error naming the stored ids when standard output cannot be written.
Result<void> print_receipts(Context& ctx, const std::vector<mail::SendReceipt>& receipts);

} // namespace mailroom::cli
