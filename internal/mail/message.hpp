#pragma once

// Value types shared by every provider and command: mailboxes, ids, priorities, messages and the
// per-recipient delivery records behind them.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mailroom::mail {

using Mailbox = std::string;   // a validated mailbox name: `name` or `rig/name` (see address.hpp)
using MessageId = std::string; // store-assigned, e.g. "mr-a1b2c3"
using ThreadId = std::string;  // e.g. "thread-0123456789ab"
using UnixMillis = std::int64_t;

// The reserved mailbox of the person at the terminal; always a valid recipient.
inline constexpr std::string_view k_human = "human";
// The default message type.
inline constexpr std::string_view k_default_type = "message";

// 0 is the most urgent. The inbox lists lower numbers first.
enum class Priority : int { urgent = 0, high = 1, normal = 2, low = 3, backlog = 4 };

// Parses "urgent|high|normal|low|backlog" or "0".."4"; anything else is nullopt.
std::optional<Priority> parse_priority(std::string_view text);
// The lower-case name of `priority` ("urgent" ...).
std::string_view to_string(Priority priority);

struct Message {
  MessageId id;
  Mailbox from;
  std::vector<Mailbox> to;
  std::vector<Mailbox> cc;
  std::string subject;
  std::string body; // raw bytes as sent; may be invalid UTF-8
  UnixMillis created_at = 0;
  bool read = false;     // for the mailbox viewing it; a sender who is not a recipient sees true
  bool archived = false; // for the mailbox viewing it
  ThreadId thread_id;
  std::optional<MessageId> reply_to;
  Priority priority = Priority::normal;
  std::string type = std::string(k_default_type);
};

// One recipient's delivery record of a message (what `mailroom status` shows).
struct DeliveryStatus {
  Mailbox recipient;
  std::string kind; // "to" or "cc"
  UnixMillis delivered_at = 0;
  std::optional<UnixMillis> read_at;
  std::optional<UnixMillis> archived_at;
};

// A registered mailbox (what `mailroom agents` lists).
struct Agent {
  Mailbox name;
  UnixMillis registered_at = 0;
  std::optional<UnixMillis> last_seen; // last time it sent, read or changed mail
  std::int64_t unread = 0;
};

struct Counts {
  std::int64_t total = 0;  // not archived
  std::int64_t unread = 0; // not archived and not read
};

// The subject of a reply to a message with subject `original`: "Re: " added once
// (compared case-insensitively, so "RE: x" stays "RE: x").
std::string reply_subject(std::string_view original);

// The subject derived from a body when none is given: its first line, cut to 80 bytes with "..."
// (77 bytes + "...") at a UTF-8 boundary.
std::string derive_subject(std::string_view body);

} // namespace mailroom::mail
