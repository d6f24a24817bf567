#pragma once

// What the list commands (inbox, sent, search) share: the filter flags, resolving them into
// mail::Filters, the limit, and the JSON and "Showing N of M" that follow a list.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "context.hpp"
#include "mail/views.hpp"
#include "text/display.hpp"

namespace mailroom::cli {

// The contract's filter flags, as typed.
struct FilterOptions {
  std::optional<std::string> from;
  std::optional<std::string> to;
  std::vector<std::string> types;
  std::optional<std::string> priority;
  std::optional<std::string> since;
  std::optional<std::string> until;
  bool unread = false;
  bool archived = false;
  std::optional<std::string> thread;
};

// --from, --to, --type (repeatable), --priority, --since, --until, --unread, --archived, --thread.
void add_filter_options(CLI::App& command, FilterOptions& opts);

// `opts` checked and resolved: --from/--to must be mailboxes; --type goes through the type table
// (a likely typo is a did-you-mean); --priority is a name or 0-4; --since/--until a duration ago
// or a time (mail::parse_time_or_age); --thread a thread id, or a message id (or a unique prefix
// of one) standing for its thread. Errors: usage, invalid_recipient, not_found (an unknown
// thread), ambiguous_id, the provider's errors.
Result<mail::Filters> resolve_filters(Context& ctx, mail::Provider& provider, const FilterOptions& opts);

// `value` as one mailbox name, for a flag such as --from. Errors: invalid_recipient (not even an
// address), usage (an address that is not one mailbox, such as @all).
Result<std::optional<mail::Mailbox>> mailbox_flag(const std::optional<std::string>& value, std::string_view flag);

// The thread `typed` names: a thread id, a message id in it, or a unique prefix of a message id.
// Errors: not_found ("thread or message ..."), ambiguous_id, the provider's errors.
Result<mail::ThreadId> resolve_thread(Context& ctx, mail::Provider& provider, const std::string& typed);

// -n/--limit N and --no-limit, shared by the lists.
struct LimitOptions {
  std::optional<std::size_t> limit;
  bool no_limit = false;
};
void add_limit_options(CLI::App& command, LimitOptions& opts);
// The limit to ask for: --limit, else the default (50), none with --no-limit.
std::optional<std::size_t> list_limit(const LimitOptions& opts);

// How much of each body a list loads: the preview (mail::k_preview_bytes) for the tables, which
// show one line of it; the whole body for --json, whose message objects promise it (contract:
// "body_truncated" is false on the CLI).
std::optional<std::size_t> list_body_bytes(const Context& ctx);

// {"schema_version":1,"mailbox":…,"messages":[message…],"total":N,"has_more":bool}; each message
// of a sent list carries its "summary".
nlohmann::json list_to_json(const mail::Mailbox& mailbox, const mail::ListResult& listed);

// "Showing N of M; --limit to see more\n" when the list was cut, else "".
text::DisplayText showing_line(const mail::ListResult& listed);

} // namespace mailroom::cli
