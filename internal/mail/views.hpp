#pragma once

// The requests and results of the provider's core and view operations (provider.hpp): who acts,
// which list, and what comes back.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "mail/message.hpp"
#include "mail/team.hpp"

namespace mailroom::mail {

// One recipient's delivery of a message of a stream (send --dedup/--supersede, mail/compose.hpp).
struct StreamCopy {
  Mailbox recipient;
  MessageId id;
};

struct SendReceipt {
  Message message;                    // as stored, as its sender sees it; id empty when nothing was
                                      // stored (every recipient suppressed)
  std::vector<Mailbox> recipients;    // every mailbox that got a delivery record, to then cc
  bool replayed = false;              // an idempotency key matched an earlier identical send
  std::vector<StreamCopy> suppressed; // --dedup: recipients left out, each with its live copy
  std::vector<StreamCopy> superseded; // --supersede: earlier unread copies archived for them
  bool stored() const { return !message.id.empty(); }
};

// Whose delivery a change applies to, and who asked (they differ for --for and [compat] gc).
struct Actor {
  Mailbox mailbox;  // the recipient whose delivery changes
  Mailbox acted_by; // the caller; recorded when it differs from `mailbox`
  // The caller's presence the change records (contract "Presence is what the agent did"): what
  // the surface it came through says (ops::Session::presence); none unless told.
  std::optional<SeenVia> seen_via;
};

// remove is `delete`: an archive on the stores; the exec provider runs the script's `delete`.
enum class Change { mark_read, mark_unread, archive, unarchive, ack, remove };
// archived_instead: a remove the provider could not do as asked was done as an archive (an exec
// script without `delete`); the caller says so.
enum class ChangeOutcome { changed, already, archived_instead };

// Which messages a list shows.
enum class Box {
  inbox,  // delivered to the mailbox, not archived; unread only unless include_read
  sent,   // sent by the mailbox, newest first
  search, // sent or received by the mailbox and matching ListQuery::search, best match first
};

// Filters of inbox, sent and search (contract "Views, search and filters"); unset means any.
struct Filters {
  std::optional<Mailbox> from;
  std::optional<Mailbox> to;      // a recipient (to or cc)
  std::vector<std::string> types; // any of these types
  std::optional<Priority> priority;
  std::optional<UnixMillis> since; // created at or after
  std::optional<UnixMillis> until; // created before
  bool unread = false;             // only unread deliveries (sent: with an unread recipient)
  bool archived = false;           // only archived deliveries (inbox, search)
  std::optional<ThreadId> thread;  // a thread id (the CLI resolves message ids)

  bool any() const
  {
    return from || to || !types.empty() || priority || since || until || unread || archived || thread;
  }
};

struct ListQuery {
  Mailbox mailbox;
  Box box = Box::inbox;
  bool include_read = false; // inbox --all
  Filters filters;
  std::string search; // Box::search: the query (words, "phrase", prefix*, OR, NOT)
  // Box::search only: every stored message, whoever sent or received it; `mailbox` is not used
  // and the messages carry no viewer's state (the operator's view: `search --mailbox '*'`).
  bool every_mailbox = false;
  std::optional<std::size_t> limit;
  std::optional<std::size_t> body_bytes; // load only this much of each body (previews)
};

// A sent message's recipients at a glance ("2/3 read, 1 awaiting ack").
struct DeliverySummary {
  std::int64_t recipients = 0;
  std::int64_t read = 0;
  std::int64_t archived = 0;
  std::int64_t acked = 0;
  std::int64_t awaiting_ack = 0;
  std::int64_t failed = 0; // escalated or expired before an ack
  // Watch's handlers: deliveries a watcher holds now, set aside (unread), and those whose
  // handler failed and that wait for their next attempt (unread, neither claimed nor set aside).
  std::int64_t claimed = 0;
  std::int64_t set_aside = 0;
  std::int64_t handler_failed = 0;
};

struct ListedMessage {
  Message message;
  std::optional<DeliverySummary> summary; // Box::sent
};

struct ListResult {
  std::vector<ListedMessage> messages;
  std::int64_t total = 0;  // how many match before the limit
  std::int64_t unread = 0; // Box::inbox: the mailbox's unread total
  bool has_more() const { return total > static_cast<std::int64_t>(messages.size()); }
};

// The hook's answer (contract "Three surfaces, one truth": the hook's order). Listed, unread mail
// only, in mail/hook_order.hpp's order: urgent mail (escalations included), then the deliveries the
// mailbox owes a reply (mail::awaits_reply), oldest first, then the rest in inbox order. The
// counts are of every unread message, however many are listed (mail::count_hook_classes).
struct CheckResult {
  std::int64_t unread = 0;       // every unread message, however many are listed
  std::int64_t awaiting = 0;     // of them, owed by the mailbox and not urgent (the second class)
  std::int64_t urgent = 0;       // urgent mail (the first class)
  std::int64_t owed = 0;         // every one owed by the mailbox, urgent or not
  std::vector<Message> messages; // the first `limit` of them in that order
};

// Views::open_deliveries: the deliveries filtered archive --all-recipients chooses from.
struct OpenDeliveriesQuery {
  std::optional<Mailbox> from; // only messages from this sender
  bool include_read = false;   // read deliveries too (never archived ones)
  std::size_t body_bytes = 0;  // load this much of each body (Message::body_bytes() is whole)
};

// One recipient's open delivery of a message, the message as that recipient sees it.
struct OpenDelivery {
  Mailbox recipient;
  Message message;
};

struct ThreadResult {
  ThreadId thread_id;
  std::vector<Message> messages; // oldest first
};

struct StatusResult {
  Message message;
  std::vector<DeliveryStatus> deliveries; // to, then cc, in stored order
};

struct TraceResult {
  std::string trace_id;
  std::vector<Message> messages; // oldest first
  // Every message's delivery records (status's), by message id; to-then-cc order.
  std::map<MessageId, std::vector<DeliveryStatus>> deliveries;
};

// One trace as `trace --recent` lists it: its root (the oldest message), when it started and last
// moved, how many messages it has, and how many of them still owe an answer (a delivery awaiting
// ack and unexpired, or escalated).
struct TraceSummary {
  std::string trace_id;
  MessageId root_id;
  Mailbox root_from;
  std::string subject; // the root's
  UnixMillis started_at = 0;
  UnixMillis last_at = 0;
  std::int64_t message_count = 0;
  std::int64_t open_requests = 0;
};

// What the registry says about one name.
struct MailboxInfo {
  enum class State { unknown, active, retired };
  State state = State::unknown;
  std::optional<UnixMillis> last_seen;
};

} // namespace mailroom::mail
