#pragma once

// mail::Provider: the one interface every command goes through. Implementations: the SQL stores
// (providers/sqlstore, run on SQLite by providers/beads and on PostgreSQL by providers/postgres)
// and the exec provider (providers/exec). All pass the provider contract suite
// (tests/testing/provider_contract.hpp); a behaviour that is not in the suite is not part of
// the contract.
//
// The interface is narrow: the Gas City operations (send, reply, list, check, count, get, read,
// change, mark_all_read, thread), `take` (wait --read; default unsupported) and `facets()`.
// Everything else a store may do is a facet (mail/facets.hpp: registry, views, health, claims,
// event log, change signal, transfer, and the facts whole_sends and unarchive): a capability is
// the presence of its facet, so a new operation is written where it is real and is reported as
// unsupported elsewhere — never a silent success. At most 12 virtual methods here, not counting
// the destructor (scripts/check-layering.sh counts them); at most 8 per facet.
//
// Rules for every method:
//  - State is per recipient: read/archived/ack live on the recipient's delivery record.
//  - The unread rule, the same for inbox, count, check, check --inject, wait and watch: a delivery
//    to the mailbox that is not read, not archived, and whose message has not expired.
//  - "None" is an empty vector or zero counts, never an error.
//  - Views are open: any caller may get, thread, status or trace any message (identities are
//    assertions); a viewer who is not a recipient sees no state (Message::state is nullopt).
//  - Unknown message ids are not_found. Changing a delivery the mailbox does not have is
//    not_recipient. Store failures are store_error (timeout when locked past the busy timeout),
//    script failures provider_error, and anything the provider cannot do is unsupported.
//  - Mailboxes passed in are already shape-validated (address.hpp); ids are full ids (Views::resolve_id).

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "mail/compose.hpp"
#include "mail/duration.hpp"
#include "mail/facets.hpp"
#include "mail/message.hpp"
#include "mail/views.hpp"

namespace mailroom::mail {

// Hands the message to the caller's output; its success decides whether the read mark is kept.
using DeliverFn = std::function<Result<void>(const Message&)>;

// How long a `take` holds a message while its taker writes it (Provider::take): no other taker
// gets it meanwhile, and a taker that dies while writing (even SIGKILL) leaves it unread and free
// again once this ran out. A write blocked for longer (a reader that stopped reading) may see
// another taker get the message too: then both deliver it, and nothing is lost.
inline constexpr Millis k_take_lease_ms = k_minute_ms;

class Provider {
public:
  virtual ~Provider() = default;

  // What this store can do beyond the operations below (mail/facets.hpp): a capability is the
  // presence of its facet. Cheap and spawns nothing; the pointers live as long as the provider.
  virtual Facets facets() = 0;

  // --- The Gas City core -------------------------------------------------------------------

  // Stores one message (compose_send decides everything) with a delivery record per recipient.
  // An idempotency key seen before from the same sender with the same content returns the
  // original with `replayed`; with other content it is conflict naming the fields that differ.
  // Errors: usage, invalid_recipient, unknown_recipient, conflict, store_error, timeout,
  // provider_error, unsupported.
  virtual Result<SendReceipt> send(const SendRequest& request) = 0;

  // Stores a reply (compose_reply decides everything) and, in the same transaction, marks the
  // replied message read for the replier and applies the ReplyAck. Errors: as send, plus
  // not_found, not_recipient.
  virtual Result<SendReceipt> reply(const ReplyRequest& request) = 0;

  // A list of one mailbox (inbox, sent, search) with its filters, ordering and limit (queries.hpp).
  virtual Result<ListResult> list(const ListQuery& query) = 0;

  // The hook predicate: the unread total of `mailbox` and its first `limit` unread messages in
  // inbox order (bodies cut to `body_bytes` when set). Changes nothing, ever.
  virtual Result<CheckResult> check(const Mailbox& mailbox, std::size_t limit,
                                    std::optional<std::size_t> body_bytes) = 0;

  // Totals of `mailbox` under the unread rule. Changes nothing.
  virtual Result<Counts> count(const Mailbox& mailbox) = 0;

  // Message `id` as `viewer` sees it. Changes nothing. Errors: not_found.
  virtual Result<Message> get(const Mailbox& viewer, const MessageId& id) = 0;

  // Hands message `id` to `deliver` and only if that succeeds marks it read on `actor`'s delivery.
  // The sender who is not a recipient may read it too (nothing to mark). Returns the message as
  // `actor.mailbox` saw it. Errors: not_found, not_recipient (actor.mailbox neither sent nor
  // received it), deliver's own error, store errors.
  virtual Result<Message> read(const Actor& actor, const MessageId& id, const DeliverFn& deliver) = 0;

  // `wait --read`: takes `id` on `actor`'s delivery if it is still unread and nobody holds it, in
  // one statement (of several takers exactly one gets it), holding it for k_take_lease_ms; hands
  // it to `deliver`, and marks it read only once that succeeded, returning it as `actor.mailbox`
  // sees it after the mark. A failed `deliver` lets it go unread and is the error; a taker killed
  // before the mark leaves it unread (held until the lease runs out). nullopt (deliver not
  // called): it was read already, or another taker (or a watcher's claim) holds it. Errors:
  // not_found, not_recipient, deliver's, store errors; the default is unsupported.
  virtual Result<std::optional<Message>> take(const Actor& actor, const MessageId& id,
                                              const DeliverFn& deliver);

  // One per-recipient state change on `actor`'s delivery; idempotent, reporting `already` when
  // nothing changed. mark_unread also clears a watch's set-aside mark. ack turns awaiting,
  // escalated and untracked deliveries into acked. Errors: not_found, not_recipient, unsupported
  // (unarchive or ack where the provider cannot).
  virtual Result<ChangeOutcome> change(const Actor& actor, const MessageId& id, Change change) = 0;

  // Marks every unread message of `mailbox` read. Returns the ids it changed, in inbox order. It
  // records no presence: the surface that called it does (ops::Presence).
  virtual Result<std::vector<MessageId>> mark_all_read(const Mailbox& mailbox) = 0;

  // The conversation `thread_or_message_id` names (a thread id, or a message id in it), oldest
  // first, every message of it as `viewer` sees it. Errors: not_found.
  virtual Result<ThreadResult> thread(const Mailbox& viewer, const std::string& thread_or_message_id) = 0;
};

// The full id `typed` stands for (Views::resolve_id); `typed` unchanged on a store without views.
Result<MessageId> resolve_id(Provider& provider, const std::string& typed);

// A new change signal of the store (Signals::change_signal); nullptr when it has none (callers
// then poll).
Result<std::unique_ptr<ChangeSignal>> change_signal(Provider& provider);

// The `unsupported` error for operation `what` ("peers") of a provider named `provider`.
Error unsupported(std::string_view provider, std::string_view what);

} // namespace mailroom::mail
