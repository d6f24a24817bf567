#pragma once

// Value types shared by every provider and command: mailboxes, ids, priorities, message types,
// traces, messages and the per-recipient delivery records behind them.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mailroom::mail {

using Mailbox = std::string;   // a validated mailbox name: `name` or `rig/name` (see address.hpp)
using MessageId = std::string; // store-assigned, e.g. "mr-0123456789abcdef"
using ThreadId = std::string;  // e.g. "thread-0123456789ab"
using UnixMillis = std::int64_t;

// The reserved mailbox of the person at the terminal; always a valid identity and recipient.
inline constexpr std::string_view k_human = "human";
// The reserved sender of what mailroom itself sends (sweep and watch escalations); always valid.
inline constexpr std::string_view k_system_sender = "mailroom";
// The default message type.
inline constexpr std::string_view k_default_type = "message";

// True for `human` and `mailroom`, which need no registration.
bool is_reserved_mailbox(std::string_view name);

// 0 is the most urgent. The inbox lists lower numbers first.
enum class Priority : int { urgent = 0, high = 1, normal = 2, low = 3, backlog = 4 };

// Parses "urgent|high|normal|low|backlog" or "0".."4"; anything else is nullopt.
std::optional<Priority> parse_priority(std::string_view text);
// The lower-case name of `priority` ("urgent" ...).
std::string_view to_string(Priority priority);

// The acknowledgement state of one delivery (contract "Acknowledgement and delivery health").
// `failed` is never stored: an awaiting or escalated delivery reads as failed once its message
// has expired.
enum class AckState { none, awaiting_ack, acked, escalated, failed };

std::string_view to_string(AckState state);
// Parses the names to_string gives; anything else is nullopt.
std::optional<AckState> parse_ack_state(std::string_view text);

// The state of one delivery of a request (a message whose type expects a reply), named as A2A
// v1.0's task states; mail/request.hpp has the rules. `expired` is never stored: a submitted or
// working delivery past its own expires_at reads as expired.
enum class RequestState {
  submitted,
  working,
  input_required,
  completed,
  failed,
  rejected,
  canceled,
  expired
};

std::string_view to_string(RequestState state);
// Parses the names to_string gives; nullopt for anything else.
std::optional<RequestState> parse_request_state(std::string_view text);

// W3C Trace Context ids of one message: 32 and 16 lower-case hex digits.
struct Trace {
  std::string trace_id;
  std::string span_id;
  std::optional<std::string> parent_span_id; // nullopt: the root of its trace
};

// One recipient's own state of a message.
struct DeliveryState {
  bool read = false;
  bool archived = false;
  AckState ack_state = AckState::none; // expiry already applied (failed)
  std::int64_t attempts = 0;           // redeliveries by the sweep so far
  std::optional<UnixMillis> last_attempt_at;
  std::optional<RequestState> request_state; // nullopt: no reply expected; expiry already applied
};

struct Message {
  MessageId id;
  Mailbox from;
  std::vector<Mailbox> to; // every mailbox the message was delivered to as "to" (groups expanded)
  std::vector<Mailbox> cc;
  // The addresses as the sender wrote them ("@all", "@ops", "bob"); views summarise with them.
  std::vector<std::string> addressed_to;
  std::string subject;
  std::string body;               // raw bytes as sent (or their preview, below); may be invalid UTF-8
  bool body_complete = true;      // false when a list loaded only a preview of the body
  std::size_t cut_body_bytes = 0; // with body_complete false: the size of the whole body
  UnixMillis created_at = 0;
  ThreadId thread_id;
  std::optional<MessageId> reply_to;
  Priority priority = Priority::normal;
  std::string type = std::string(k_default_type);
  Trace trace;
  std::optional<UnixMillis> expires_at;
  // The key of `send --dedup KEY` or `--supersede KEY`: one stream of its sender's notifications
  // (compose.hpp says what each does with it); nullopt for other mail.
  std::optional<std::string> dedup_key;
  bool expired = false; // expires_at had passed when the message was loaded
  // The viewing mailbox's delivery; nullopt when the viewer is not a recipient (a sender or any
  // other caller: views are open, state is not).
  std::optional<DeliveryState> state;
  // Who really sent it: the OS uid and host recorded beside the asserted sender (-1 / "" unknown).
  std::int64_t sender_uid = -1;
  std::string sender_host;
  // The schedule that sent it and the slot it fired for (contract "Schedules"); nullopt for a
  // message sent directly. Kept beside the message, not in its row (mail/message_fields.hpp).
  std::optional<std::string> schedule;
  std::optional<UnixMillis> slot;

  // The unread rule (provider.hpp; in SQL, providers/sqlstore/sql_rules.hpp): the viewer has a
  // delivery that is not read and not archived, and the message had not expired when loaded.
  // False for non-recipients.
  bool unread() const { return state && !state->read && !state->archived && !expired; }
  // The size of the whole body in bytes, whether `body` holds all of it or a preview.
  std::size_t body_bytes() const { return body_complete ? body.size() : cut_body_bytes; }
};

// Inbox order (provider.hpp; in SQL, providers/sqlstore/sql_rules.hpp): urgent first, then
// oldest. Messages equal in both keep their arrival order, which the stores' SQL breaks by the
// message's seq: sort with a stable sort over the provider's list (sort_inbox).
bool inbox_before(const Message& a, const Message& b);

// Sorts `messages` into inbox order, stably (ties keep the order they came in).
void sort_inbox(std::vector<Message>& messages);

// How much of `body` its preview keeps: at most `limit` bytes (k_preview_bytes), cut so that no
// UTF-8 character is split. The bead store keeps this prefix beside the body, and lists, check and
// the hook read it instead of the body.
std::size_t preview_length(std::string_view body, std::size_t limit);

// Cuts `m.body` to its preview of at most `limit` bytes (body_complete false, cut_body_bytes the
// whole size) when it is longer; a shorter body stays whole. For providers that only get whole
// bodies (exec) and are asked for previews.
void cut_to_preview(Message& m, std::size_t limit);

// One recipient's delivery record of a message (what `mailroom status` shows, and an export's
// delivery record). Its stored fields are in the table of mail/delivery_fields.hpp, which names
// them by these members.
struct DeliveryStatus {
  Mailbox recipient;
  std::string kind; // "to" or "cc"
  UnixMillis delivered_at = 0;
  std::optional<UnixMillis> read_at;
  std::optional<UnixMillis> archived_at;
  AckState ack_state = AckState::none;
  std::optional<UnixMillis> acked_at;
  std::int64_t attempts = 0;
  std::optional<UnixMillis> last_attempt_at;
  std::optional<UnixMillis> next_attempt_at; // the sweep's schedule (shown only by export)
  std::optional<Mailbox> acted_by;           // who last changed this record for the recipient (--for)
  std::int64_t handler_attempts = 0;         // watch handler attempts counted on it
  std::optional<UnixMillis> retry_at;        // watch's next try (shown only by export)
  struct Claim {
    std::string claimed_by;
    UnixMillis claim_until = 0;
    std::int64_t lease_left_ms = 0; // at the store's clock when read
  };
  std::optional<Claim> claim;             // a watcher's lease that holds now
  std::optional<UnixMillis> set_aside_at; // a watcher gave up on it (until mark-unread)
  // The request's state on this delivery (nullopt: no reply expected), expiry already applied,
  // and when it last changed (nullopt: never since it was delivered).
  std::optional<RequestState> request_state;
  std::optional<UnixMillis> request_state_at;
  // The delivery's own expiry: the message's, pushed back by the time spent in input_required,
  // or the moment it was canceled.
  std::optional<UnixMillis> expires_at;
};

// A registered mailbox (what `mailroom agents` lists).
struct Agent {
  Mailbox name;
  UnixMillis registered_at = 0;
  std::optional<UnixMillis> last_seen; // last time a command ran as it
  std::int64_t unread = 0;
};

struct Counts {
  std::int64_t total = 0;  // delivered and not archived
  std::int64_t unread = 0; // the unread rule (provider.hpp): not read, not archived, not expired
};

// The subject of a reply to a message with subject `original`: "Re: " added once
// (compared case-insensitively, so "RE: x" stays "RE: x").
std::string reply_subject(std::string_view original);

// The subject derived from a body when none is given: its first line, cut to 80 bytes with "..."
// (77 bytes + "...") at a UTF-8 boundary.
std::string derive_subject(std::string_view body);

} // namespace mailroom::mail
