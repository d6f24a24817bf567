#pragma once

// Human and hook renderings of messages. Pure functions from values to text; commands write the
// result to their Output. Every byte that comes from a message passes through the output gate
// (text/sanitize.hpp), so the views return text::DisplayText, which only the gate can make.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mail/message.hpp"
#include "mail/provider.hpp"
#include "render/table.hpp"
#include "text/display.hpp"

namespace mailroom::render {

using mail::Agent;
using mail::DeliveryStatus;
using mail::Mailbox;
using mail::Message;
using mail::Priority;
using mail::UnixMillis;
using text::DisplayText;

// Times in human views: one format per kind of view, always local with the zone shown.
// Message views (read, peek, thread): "YYYY-MM-DD HH:MM:SS ZONE" (Gas City's `Sent:` plus the
// zone abbreviation, e.g. "2026-04-18 10:11:12 UTC"; the numeric offset when the zone has none).
std::string format_sent(UnixMillis when);
// Table columns of absolute times (thread, status, agents): "YYYY-MM-DD HH:MM ZONE".
std::string format_sent_short(UnixMillis when);
// RFC 3339 UTC with milliseconds: "2026-11-22T13:48:59.123Z".
std::string format_rfc3339(UnixMillis when);
// "just now", "5m ago", "3h ago", "2d ago", relative to `now`.
std::string format_age(UnixMillis when, UnixMillis now);

// Who `message` is for, in one short line: its recipients joined; or, when it was addressed to a
// group (@all, @ops), the addresses as written and how many `mailboxes` they reached
// (`@all (499 mailboxes)`), so a broadcast never fills the screen.
DisplayText addressees(const Message& message, std::size_t mailboxes);

// The read/peek header view: labels padded to 10 columns:
//   ID:, From:, To:, Cc: (only when not empty), Subject: (only when not empty), Sent:,
//   (a message addressed to a group has one To: line, addressees(), and no Cc:),
//   Priority: (only when not normal), Type: (only when not "message"), Request: (the viewer's
//   request_state, when it has one), Thread:, In-Reply-To: (when set), Expires: or Expired:
//   (format_sent; when the message has a ttl),
//   Body: (only when not empty; a multi-line body continues raw on the following lines).
// Given `now`, a message the sweep redelivered to the viewer gets a Delivery: line after Sent:
// ("redelivered, attempt k, first sent <age> ago", render/health.hpp).
// Ends in '\n'.
// "(canceled)" when the viewer's request was canceled (which ends a delivery's life as expiry
// does), "(expired)" when the message (the viewer's delivery) has expired; nullopt otherwise.
std::optional<text::Literal> end_mark(const Message& message);

DisplayText render_message_view(const Message& message, std::optional<UnixMillis> now = std::nullopt);

// The inbox table: ID, PRI (priority name), TYPE (only when a listed message is not of type
// "message"; blank for those that are), FROM, SUBJECT (" (expired)" added for an expired message),
// BODY (one-line preview cut to 60 bytes), AGE (format_age); with `show_read` (inbox --all) a
// last READ column (U+2713 or blank). Fitted to `style`: urgent and high rows coloured (red, yellow)
// when colour is on; the PRI column names every priority but normal, so urgent and high are marked
// without colour too. A redelivered message's SUBJECT starts with
// "(redelivered, attempt k, first sent <age> ago) ".
DisplayText render_inbox_table(const std::vector<Message>& messages, UnixMillis now, bool show_read,
                               const Style& style = {});

// The thread table: ID, FROM, TO, SUBJECT (marked as in the inbox), SENT (format_sent_short),
// READ (U+2713 or blank).
DisplayText render_thread_table(const std::vector<Message>& messages, const Style& style = {});

// The thread view (`thread`): every message oldest first as the read/peek view without its
// Thread: line, the bodies included, separated by a blank line; starts with the line
// "Thread <id>: N message(s)".
DisplayText render_thread_view(std::string_view thread_id, const std::vector<Message>& messages);

// The status table: RECIPIENT, KIND, DELIVERED, READ, ARCHIVED (format_sent_short or "-").
DisplayText render_status_table(const std::vector<DeliveryStatus>& records, const Style& style = {});

// The agents table: NAME, UNREAD, LAST SEEN (format_age or "-"), REGISTERED (format_sent_short).
DisplayText render_agents_table(const std::vector<Agent>& agents, UnixMillis now, const Style& style = {});

// The check --inject text (contract "check --inject"): empty when `unread` is 0; otherwise the
// <system-reminder> block listing `messages` (already limited, in the hook's order: mail/
// hook_order.hpp), with the "Showing the first K message(s) here; ..." line when unread >
// messages.size(). Urgent and high messages are marked at the start of their line ("- [urgent]
// <id> from ..."), and so are those that await the mailbox's reply ("- [urgent] [reply expected]
// <id> ...", mail::awaits_reply). `program` is the command the block tells the reader to run,
// global options included ("mailroom", "mailroom --as mayor"), in the Showing line and the last
// lines. The last line says how to answer, naming mail::message_to_answer's id (the first listed
// message awaiting a reply, else the first listed): "To answer, run 'mailroom reply <id> <your
// reply>'.". Ends in '\n'. Ids, senders, subjects and bodies pass through Sink::hook: one line
// each, hidden characters as escapes, no reminder tag; previews are cut to 240 bytes, ids and
// senders to text::k_default_cap_bytes. Given `now`, a redelivered message's line says so after
// its sender ("- <id> from <from> (redelivered, attempt k, first sent <age> ago) ...").
//
// `head` adds what reaches an agent (contract "What reaches an agent"): after Gas City's first
// line, "For mailbox NAME:" when `mailbox` is set, then, when `urgent` or `awaiting` is non-zero,
// one line counting the classes in the hook's order ("1 urgent; 2 requests await your reply; 4
// more"). The messages come in the caller's order (mail::CheckResult's).
struct ReminderHead {
  std::int64_t unread = 0;
  std::string_view mailbox;  // empty: no "For mailbox" line
  std::int64_t awaiting = 0; // unread deliveries awaiting the mailbox's reply, not urgent
  std::int64_t urgent = 0;   // unread urgent mail and escalations
  // The answer is the last one a slow store gave this long ago (mail::HookCheck): an
  // `(as of 40 s ago)` line after the count line.
  std::optional<std::int64_t> age_ms;
};

// "40 s", "12 min", "3 h", "2 d": an age as the reminder says it (whole units, rounded down).
DisplayText age_words(std::int64_t age_ms);
DisplayText render_inject(const ReminderHead& head, const std::vector<Message>& messages,
                          std::string_view program = "mailroom",
                          std::optional<UnixMillis> now = std::nullopt);
inline DisplayText render_inject(std::int64_t unread, const std::vector<Message>& messages,
                                 std::string_view program = "mailroom",
                                 std::optional<UnixMillis> now = std::nullopt)
{
  return render_inject(ReminderHead{unread}, messages, program, now);
}

// The same text wrapped for a Claude Code hook: one line of JSON
// {"hookSpecificOutput":{"hookEventName":<event>,"additionalContext":<text without trailing newlines>}}
// followed by '\n', written by dump_json (json.hpp). Empty when `text` is empty. `text` is the
// render_inject result; `event` is capped and kept exact otherwise (JSON).
std::string render_claude_hook(std::string_view text, std::string_view event);

} // namespace mailroom::render
