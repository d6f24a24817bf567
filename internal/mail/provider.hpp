#pragma once

// mail::Provider: the one interface every command goes through. Implementations: the SQLite bead
// store (providers/beads), the exec provider (providers/exec) and the in-memory fake used by tests
// (internal/testing). All must pass the provider contract suite (internal/testing/provider_contract.hpp);
// a behaviour that is not in the suite is not part of the contract.
//
// Rules for every method:
//  - State is per recipient: read/archived live on the caller's delivery record, never on the message.
//  - "None" is an empty vector or zero counts, never an error.
//  - Unknown message ids are not_found. Acting on a message the mailbox is neither the sender nor a
//    recipient of is not_recipient. Store failures are store_error (or timeout when locked past the
//    busy timeout), script failures provider_error, and anything the provider cannot do is
//    unsupported; never a silent success.
//  - Mailboxes passed in are already shape-validated (address.hpp).

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "mail/message.hpp"
#include "base/result.hpp"

namespace mailroom::mail {

struct SendRequest {
  Mailbox from;
  std::vector<Mailbox> to; // explicit mailboxes, groups already expanded; may be empty with broadcast
  std::vector<Mailbox> cc;
  bool broadcast = false;  // @all: every registered mailbox except `from` and human, fixed at send time
  bool require_registered = true; // false when the config says recipients = "any"
  std::string subject;
  std::string body;
  Priority priority = Priority::normal;
  std::string type = std::string(k_default_type);
  std::optional<std::string> idempotency_key;
};

struct ReplyRequest {
  Mailbox from;
  std::optional<std::string> subject; // nullopt: reply_subject(original subject)
  std::string body;
  bool reply_all = false; // also everyone in the original to and cc, minus `from`
  Priority priority = Priority::normal;
  std::string type = std::string(k_default_type);
  std::optional<std::string> idempotency_key;
};

struct SendReceipt {
  Message message;                 // as stored, from the sender's point of view
  std::vector<Mailbox> recipients; // every mailbox that got a delivery record, to then cc, deduplicated
  bool replayed = false;           // an idempotency key matched an earlier identical send
};

struct ListOptions {
  bool include_read = false;        // inbox --all
  std::optional<std::size_t> limit; // at most this many, after ordering
};

struct CheckResult {
  std::int64_t unread = 0;       // every unread message, however many are listed
  std::vector<Message> messages; // the first `limit` of them in inbox order
};

struct ThreadResult {
  ThreadId thread_id;
  std::vector<Message> messages; // oldest first; only those the viewer sent or received
};

enum class ChangeOutcome { changed, already };

struct Capabilities {
  bool registry = false;  // agents, unknown_recipient checks, @all
  bool cc = false;        // cc, priority and type travel with the message
  bool unarchive = false;
  bool status = false;    // per-recipient delivery times for the sender
  bool multi_recipient = false; // one stored message can have several recipients; when false the
                                // caller sends once per recipient (to.size() must be 1)
  bool idempotency = false;     // SendRequest::idempotency_key is honoured
};

// Called by read() once the message is in hand; its success decides whether the read mark is kept.
using DeliverFn = std::function<Result<void>(const Message&)>;

class Provider {
public:
  virtual ~Provider() = default;

  // What this provider can do beyond the Gas City protocol. Changes nothing, never fails.
  virtual Capabilities capabilities() const = 0;

  // Stores one message with a delivery record per recipient (to, cc and the broadcast audience,
  // deduplicated; to wins over cc). Recipients are checked before anything is stored:
  // unknown_recipient (with suggestions) for an unregistered mailbox when `require_registered`;
  // usage when the audience is empty. An idempotency key seen before from the same sender with the
  // same content returns the original with `replayed`; with other content it is conflict.
  // Registers the sender. Errors: usage, unknown_recipient, conflict, store_error, timeout,
  // provider_error, unsupported.
  virtual Result<SendReceipt> send(const SendRequest& request) = 0;

  // Sends a reply to `id` in its thread with reply_to = `id`: to the original sender, or with
  // reply_all to everyone on it except the replier. The replier must be the sender or a recipient
  // of `id`. Errors: as send, plus not_found, not_recipient.
  virtual Result<SendReceipt> reply(const MessageId& id, const ReplyRequest& request) = 0;

  // Messages delivered to `mailbox` and not archived by it; unread only unless include_read.
  // Ordered by priority (urgent first), then oldest first, then id. Changes nothing.
  virtual Result<std::vector<Message>> inbox(const Mailbox& mailbox, const ListOptions& options) = 0;

  // The hook predicate: the unread total and the first `limit` unread messages in inbox order.
  // Uses exactly inbox's unread rule. Changes nothing, ever.
  virtual Result<CheckResult> check(const Mailbox& mailbox, std::size_t limit) = 0;

  // Totals for `mailbox` with the same rules as inbox. Changes nothing.
  virtual Result<Counts> count(const Mailbox& mailbox) = 0;

  // The message as `viewer` sees it (read/archived from viewer's record). Changes nothing.
  // Errors: not_found, not_recipient (viewer neither sent nor received it).
  virtual Result<Message> get(const Mailbox& viewer, const MessageId& id) = 0;

  // Hands the message to `deliver` and, only if that succeeds, marks it read for `viewer`
  // (a sender who is not a recipient has nothing to mark). Reading twice is fine; archived
  // messages can be read. Returns the message as it was before marking.
  // Errors: not_found, not_recipient, deliver's own error, store/provider errors.
  virtual Result<Message> read(const Mailbox& viewer, const MessageId& id, const DeliverFn& deliver) = 0;

  // Per-recipient state changes for `mailbox` only; each is idempotent and reports `already` when
  // nothing changed. Errors: not_found, not_recipient (mailbox has no delivery record of `id`).
  virtual Result<ChangeOutcome> mark_read(const Mailbox& mailbox, const MessageId& id) = 0;
  virtual Result<ChangeOutcome> mark_unread(const Mailbox& mailbox, const MessageId& id) = 0;
  virtual Result<ChangeOutcome> archive(const Mailbox& mailbox, const MessageId& id) = 0;
  // Errors as archive, plus unsupported where capabilities().unarchive is false.
  virtual Result<ChangeOutcome> unarchive(const Mailbox& mailbox, const MessageId& id) = 0;

  // Marks every unread, unarchived message of `mailbox` read. Returns the ids it changed.
  virtual Result<std::vector<MessageId>> mark_all_read(const Mailbox& mailbox) = 0;

  // The conversation `thread_or_message_id` names (a thread id, or any message id in it), oldest
  // first, limited to messages `viewer` sent or received (archived ones included).
  // Errors: not_found when the id is neither a known thread nor a message.
  virtual Result<ThreadResult> thread(const Mailbox& viewer, const std::string& thread_or_message_id) = 0;

  // For the sender (or a recipient) of `id`: one record per recipient, in to-then-cc order.
  // Errors: not_found, not_recipient, unsupported.
  virtual Result<std::vector<DeliveryStatus>> status(const Mailbox& viewer, const MessageId& id) = 0;

  // First-use registration: adds `mailbox` to the registry when missing. Must not take the write
  // lock when it is already registered. No-op for providers without a registry.
  virtual Result<void> ensure_registered(const Mailbox& mailbox) = 0;

  // The registry, sorted by name. unsupported without a registry.
  virtual Result<std::vector<Agent>> agents() = 0;
  // Registers `names` (already valid mailboxes) in one transaction; returns those that were new.
  virtual Result<std::vector<Mailbox>> add_agents(const std::vector<Mailbox>& names) = 0;
  // Retires `name`: it is no longer a valid recipient nor in @all; delivered mail stays readable.
  // Errors: not_found when it is not registered.
  virtual Result<void> remove_agent(const Mailbox& name) = 0;
};

} // namespace mailroom::mail
