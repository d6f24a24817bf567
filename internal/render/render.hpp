#pragma once

// Human and hook renderings of messages. Pure functions from values to text; commands write the
// result to their Output. Every byte that comes from a message passes through sanitize.hpp.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "mail/message.hpp"
#include "mail/provider.hpp"

namespace mailroom::render {

using mail::Agent;
using mail::DeliveryStatus;
using mail::Mailbox;
using mail::Message;
using mail::Priority;
using mail::UnixMillis;

// How a human view may use the terminal.
struct Style {
  std::size_t width = 0; // columns a table must fit in (COLUMNS or the terminal's); 0: no limit
  bool color = false;    // ANSI colour and bold allowed (a colour terminal, no NO_COLOR, TERM != dumb)
};

// The widest any column gets when a table does not say (display cells).
constexpr std::size_t k_default_column_cap = 100;

// A table. Columns are as wide as their widest cell in display cells (wide characters and emoji
// count two), at most their cap; when `style.width` is set and the table is wider, the widest
// columns give up cells first, never below their floor (`floors`, default: the heading's width);
// when even the floors do not fit, the columns of `drop_order` are left out one by one.
// A cell cut to its column ends in "…". Two spaces between columns, the last column is not
// padded, every line ends in '\n'. Cells must already be sanitised single lines. With colour, the
// header is bold and a row whose `row_sgr` is set is drawn in that SGR ("31" red).
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::size_t> caps;     // per column; missing: k_default_column_cap
  std::vector<std::size_t> floors;   // per column; missing: the heading's width
  std::vector<std::string> row_sgr;  // per row; missing or empty: plain
  // Columns left out, in this order, when the table does not fit `style.width` even at its floors.
  std::vector<std::size_t> drop_order;
};
std::string render_table(const Table& table, const Style& style = {});

// `cell` cut to at most `width` display cells, ending in "…" when cut.
std::string fit_cells(std::string_view cell, std::size_t width);

// Times in human views: one format per kind of view, always local with the zone shown.
// Message views (read, peek, thread): "YYYY-MM-DD HH:MM:SS ZONE" (Gas City's `Sent:` plus the
// zone abbreviation, e.g. "2026-04-18 10:11:12 UTC").
std::string format_sent(UnixMillis when);
// Table columns of absolute times (status, agents): "YYYY-MM-DD HH:MM ZONE".
std::string format_sent_short(UnixMillis when);
// RFC 3339 UTC with milliseconds: "2026-11-22T13:48:59.123Z".
std::string format_rfc3339(UnixMillis when);
// "just now", "5m ago", "3h ago", "2d ago", relative to `now`.
std::string format_age(UnixMillis when, UnixMillis now);

// The read/peek header view: labels padded to 10 columns:
//   ID:, From:, To:, Cc: (only when not empty), Subject: (only when not empty), Sent:,
//   Priority: (only when not normal), Type: (only when not "message"), Thread:, Reply-To: (when set),
//   Body: (only when not empty; a multi-line body continues raw on the following lines).
// Ends in '\n'.
std::string render_message_view(const Message& message);

// The inbox table: ID, PRI (priority name), FROM, SUBJECT, BODY (one-line preview cut to 60 bytes),
// AGE (format_age); with `show_read` (inbox --all) a last READ column (U+2713 or blank). Fitted to
// `style`: urgent and high rows coloured (red, yellow) when colour is on;
// the PRI column names every priority but normal, so urgent and high are marked without colour too.
std::string render_inbox_table(const std::vector<Message>& messages, UnixMillis now, bool show_read,
                               const Style& style = {});

// The thread table: ID, FROM, TO, SUBJECT, SENT (format_sent_short), READ (U+2713 or blank).
std::string render_thread_table(const std::vector<Message>& messages, const Style& style = {});

// The thread view (`thread`): every message oldest first as the read/peek view without its
// Thread: line, the bodies included, separated by a blank line; starts with the line
// "Thread <id>: N message(s)".
std::string render_thread_view(std::string_view thread_id, const std::vector<Message>& messages);

// The status table: RECIPIENT, KIND, DELIVERED, READ, ARCHIVED (format_sent_short or "-").
std::string render_status_table(const std::vector<DeliveryStatus>& records, const Style& style = {});

// The agents table: NAME, UNREAD, LAST SEEN (format_age or "-"), REGISTERED (format_sent_short).
std::string render_agents_table(const std::vector<Agent>& agents, UnixMillis now, const Style& style = {});

// The check --inject text (contract "check --inject"): empty when `unread` is 0; otherwise the
// <system-reminder> block listing `messages` (already limited, urgent first), with the
// "Showing the first K message(s) here; ..." line when unread > messages.size(). `program` is the
// command name used in the last line ("mailroom"). Ends in '\n'.
std::string render_inject(std::int64_t unread, const std::vector<Message>& messages,
                          std::string_view program = "mailroom");

// The same text wrapped for a Claude Code hook: one line of JSON
// {"hookSpecificOutput":{"hookEventName":<event>,"additionalContext":<text without trailing newlines>}}
// followed by '\n'. Empty when `text` is empty.
std::string render_claude_hook(std::string_view text, std::string_view event);

} // namespace mailroom::render
