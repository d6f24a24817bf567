#pragma once

// compose: every rule of a send and a reply, decided once above the stores. Who receives them is
// audience.hpp; size caps, the idempotency fingerprint, ack tracking, trace ids and expiry are here. A store
// receives the resulting Composed record inside its write transaction and only stores it.

#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "mail/ack.hpp"
#include "mail/audience.hpp"
#include "mail/duration.hpp"
#include "mail/ids.hpp"
#include "mail/message.hpp"
#include "mail/policy.hpp"
#include "mail/request.hpp"
#include "mail/views.hpp"
#include "mail/wake.hpp"

namespace mailroom::mail {

// What a send's stream key does (send --dedup KEY, --supersede KEY; contract "Gas City, round
// 4"). A stream is one sender's messages with one key (Message::dedup_key); a copy of it is a
// recipient's delivery of one of them.
enum class KeyUse {
  // A recipient who still has a live copy (neither archived nor expired: read ones count) gets no
  // delivery; with none left nothing is stored. The receipt names each suppressed recipient with
  // its live copy.
  dedup,
  // Every recipient's earlier unread copies are archived for it (acted_by the sender) in the
  // send's transaction; the receipt names them.
  supersede,
};

struct SendRequest {
  Mailbox from;
  // The sender's presence the send records (ops::Session::presence: the surface's source), none
  // when not told: mail the system sends on an agent's behalf (a schedule's firing, an escalation).
  std::optional<SeenVia> seen_via;
  std::vector<std::string> to; // addresses as written: `name`, `rig/name`, `@group`, `@all`
  std::vector<std::string> cc;
  std::optional<std::string> subject; // nullopt: the body's first line (derive_subject)
  std::string body;
  Priority priority = Priority::normal;
  std::string type = std::string(k_default_type);
  bool ack = false;                  // send --ack: track this delivery under the typed policy
  std::optional<Millis> ttl;         // send --ttl
  std::optional<TraceParent> parent; // --trace / TRACEPARENT: join that trace as a child
  std::optional<std::string> idempotency_key;
  std::optional<std::string> dedup_key; // the stream (see KeyUse); stored on the message
  KeyUse key_use = KeyUse::dedup;
  // A schedule's firing (contract "Schedules"): the schedule's name and the slot, stamped on the
  // message; and, when set, the instant the ttl counts from instead of the send (a slot).
  std::optional<std::string> schedule;
  std::optional<UnixMillis> slot;
  std::optional<UnixMillis> ttl_from;
  WakeWhen wake; // whether the message wakes its recipients that have a wake target (mail/wake.hpp)
};

struct ReplyRequest {
  Mailbox from;
  std::optional<SeenVia> seen_via;    // as SendRequest's
  MessageId id;                       // the message replied to (full id)
  std::optional<std::string> subject; // nullopt: reply_subject(original subject)
  std::string body;
  bool reply_all = false;
  bool confirmed = false; // --yes: reply --all to more than k_reply_all_confirm_above
  Priority priority = Priority::normal;
  std::optional<std::string> type; // nullopt: the original type's reply type
  bool ack = false;
  std::optional<Millis> ttl;
  std::optional<std::string> idempotency_key;
  // decline, ask or fail (Requests::respond): the reply is that verb's notice (its type, a
  // "Declined: …" subject by default) and moves the replier's request (mail/request.hpp). Without
  // it a reply may not take a notice's type.
  std::optional<RequestVerb> verb;
  WakeWhen wake; // as SendRequest's
};

// When and by whom a record is made.
struct Stamp {
  UnixMillis now = 0;
  std::int64_t uid = -1;
  std::string host;
};

// One recipient's delivery record as it will be stored.
struct PlannedDelivery {
  Mailbox recipient;
  std::string kind; // "to" or "cc"
  AckState ack_state = AckState::none;
  std::optional<UnixMillis> next_attempt_at; // tracked deliveries: when the sweep first looks
  std::optional<RequestState> request_state; // submitted when the type expects a reply
};

// A fully decided message: what a store writes, in one transaction.
struct Composed {
  Message message; // every field but `state`
  std::vector<PlannedDelivery> deliveries;
  std::optional<std::string> idempotency_key;
  std::string fingerprint;                // what the key replays against (fingerprint_matches)
  std::vector<Mailbox> register_names;    // mailboxes to add to the registry with the message
  std::optional<ReplyAck> reply_ack;      // replies: acks to apply and the original to mark read
  std::vector<RequestMove> request_moves; // replies: the requests they complete, answer or resume
  KeyUse key_use = KeyUse::dedup;         // with message.dedup_key: what the key does
  std::optional<SeenVia> seen_via;        // the sender's presence to record, if any
  // The store records a pending wake (attempt 0) for each recipient that has a wake target, in
  // this transaction (mail::wakes decided it).
  bool plan_wakes = false;
};

// Checks everything a send needs no store for: sizes, the key, the type, the ttl, the address
// shapes. Call before any transaction. Errors: usage, invalid_recipient.
Result<void> check_send(const SendRequest& request, const MailPolicy& policy);

// The record of a send. Errors: as check_send and resolve_audience.
Result<Composed> compose_send(const SendRequest& request, const Directory& directory,
                              const MailPolicy& policy, const Stamp& stamp);

// The record of a reply to `original` (as stored; its `state` is the replier's delivery, if any),
// with the request moves it makes (mail::reply_moves). Errors: as reply_audience, plus usage for
// sizes and types (a notice's type without a verb; ask without a question), and check_verb's.
Result<Composed> compose_reply(const Message& original, const ReplyRequest& request, const MailPolicy& policy,
                               const Stamp& stamp);

// The `canceled` notice of a cancel of `original` by its sender: to `recipients` (the deliveries
// the cancel closed), in the original's thread and trace as a reply to it, `reason` as its body.
Result<Composed> compose_cancel_notice(const Message& original, const std::vector<Mailbox>& recipients,
                                       const std::string& reason, const MailPolicy& policy,
                                       const Stamp& stamp);

// Drops the deliveries of `composed` whose recipient has a live copy of its stream (`live`, found
// by the store in the send's transaction), and those recipients from its `to` and `cc`. With no
// delivery left the send stores nothing (Composed::deliveries empty).
void drop_suppressed(Composed& composed, const std::vector<StreamCopy>& live);

// The fingerprint a send or reply is keyed on: one hash per field, so a reused key can say which
// fields differ.
std::string fingerprint_of(const Composed& composed);

// The fields (e.g. "body", "to") in which `fresh` differs from `stored`; empty when they match.
// A fingerprint from an older mailroom (one hash for everything) differing yields {"content"}.
std::vector<std::string> fingerprint_differences(const std::string& stored, const std::string& fresh);

} // namespace mailroom::mail
