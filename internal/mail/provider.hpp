#pragma once

// mail::Provider: the one interface every command goes through. Implementations: the SQL stores
// (providers/sqlstore, run on SQLite by providers/beads and on PostgreSQL by providers/postgres)
// and the exec provider (providers/exec). All pass the provider contract suite
// (tests/testing/provider_contract.hpp); a behaviour that is not in the suite is not part of
// the contract.
//
// The interface grows by capability: the Gas City core (send … thread) is pure virtual; every
// other operation has a default that answers `unsupported`, so a new operation is written where
// it is real and is reported as unsupported elsewhere — never a silent success.
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
//  - Mailboxes passed in are already shape-validated (address.hpp); ids are full ids (resolve_id).

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "mail/claims.hpp"
#include "mail/compose.hpp"
#include "mail/events.hpp"
#include "mail/health.hpp"
#include "mail/message.hpp"
#include "mail/signal.hpp"
#include "mail/team.hpp"
#include "mail/transfer.hpp"
#include "mail/views.hpp"

namespace mailroom::mail {

// What this provider can do beyond the Gas City protocol; the CLI uses it to choose, never to
// guess (an operation not listed still answers unsupported when called).
struct Capabilities {
  bool registry = false;        // agents, unknown_recipient checks, @all, presence
  bool multi_recipient = false; // one stored message can have several recipients (and cc,
                                // priority, type, ack, ttl travel with it); when false the CLI sends
                                // once per recipient
  bool idempotency = false;     // SendRequest::idempotency_key is honoured
  bool unarchive = false;
  bool views = false;           // status, trace, sent, filters, id prefixes
  bool delivery_health = false; // ack, peers, sweep
  bool claims = false;          // watch
  bool search = false;
  bool transfer = false;        // export, import, purge
  bool events = false;          // events, prune_events (the live event log)
};

// Hands the message to the caller's output; its success decides whether the read mark is kept.
using DeliverFn = std::function<Result<void>(const Message&)>;

class Provider {
public:
  virtual ~Provider() = default;

  virtual Capabilities capabilities() const = 0;

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

  // `wait --read`: marks `id` read on `actor`'s delivery only if it is still unread, in one
  // statement, and only then hands it to `deliver`, as `actor.mailbox` sees it after the mark; of
  // several takers exactly one gets it. nullopt (deliver not called): it was already read, e.g.
  // taken by another waiter. A failed `deliver` takes the mark back (unless the delivery changed
  // since) and is the error. Errors: not_found, not_recipient, deliver's, store errors; the
  // default is unsupported.
  virtual Result<std::optional<Message>> take(const Actor& actor, const MessageId& id,
                                              const DeliverFn& deliver);

  // One per-recipient state change on `actor`'s delivery; idempotent, reporting `already` when
  // nothing changed. mark_unread also clears a watch's set-aside mark. ack turns awaiting,
  // escalated and untracked deliveries into acked. Errors: not_found, not_recipient, unsupported
  // (unarchive or ack where the provider cannot).
  virtual Result<ChangeOutcome> change(const Actor& actor, const MessageId& id, Change change) = 0;

  // Marks every unread message of `mailbox` read. Returns the ids it changed, in inbox order.
  virtual Result<std::vector<MessageId>> mark_all_read(const Mailbox& mailbox) = 0;

  // The conversation `thread_or_message_id` names (a thread id, or a message id in it), oldest
  // first, every message of it as `viewer` sees it. Errors: not_found.
  virtual Result<ThreadResult> thread(const Mailbox& viewer, const std::string& thread_or_message_id) = 0;

  // --- Views (capabilities().views) ---------------------------------------------------------

  // The full id `typed` stands for: itself when it exists, else the one id it is a unique prefix
  // of (at least k_min_id_prefix characters after the prefix's "mr-"). Errors: not_found;
  // ambiguous_id with the candidates in Error::suggestions. Default: `typed` unchanged.
  virtual Result<MessageId> resolve_id(const std::string& typed);

  // Every delivery record of `id`, in to-then-cc order, and the message itself (sender uid/host).
  virtual Result<StatusResult> status(const MessageId& id);

  // The messages of a trace (a trace id, or the trace of message id), oldest first.
  virtual Result<TraceResult> trace(const Mailbox& viewer, const std::string& trace_or_message_id);
  // The `limit` traces started most recently, newest first (ties by trace id). A view: changes
  // nothing. Default: unsupported.
  virtual Result<std::vector<TraceSummary>> recent_traces(std::size_t limit);

  // --- Registry (capabilities().registry) ---------------------------------------------------

  // Active and retired mailboxes, for identity checks and suggestions.
  virtual Result<Directory> directory();
  // Whether `name` is registered, retired or unknown, and when it was last seen. Cheap: the
  // identity guard runs it on every command.
  virtual Result<MailboxInfo> mailbox_info(const Mailbox& name);
  // The registry with unread totals, sorted by name.
  virtual Result<std::vector<Agent>> agents();
  // Registers `names` in one transaction (reactivating retired ones); returns those that changed.
  virtual Result<std::vector<Mailbox>> add_agents(const std::vector<Mailbox>& names);
  // Retires `name`: no longer a valid recipient nor in @all; delivered mail stays. Returns its
  // unread total at the time. Errors: not_found when it is not registered.
  virtual Result<std::int64_t> remove_agent(const Mailbox& name);
  // Records that a command ran as `name` now, by `via` (the seen_via column), unless last_seen is
  // newer than `min_interval_ms` ago (0: always). Never registers. Never waits for a lock held
  // elsewhere: a busy store is ErrorCode::timeout at once, and the caller skips the write.
  // Errors: store errors, timeout.
  virtual Result<void> touch(const Mailbox& name, std::int64_t min_interval_ms, SeenVia via);

  // --- Delivery health (capabilities().delivery_health) -------------------------------------

  // Health of `me`'s channel to each other mailbox it sent mail to or received mail from (or just
  // `peer`), as mail::finish_peers orders it (stale first) under the policy's stale_after. Reads
  // only what a peer's figures need (never the whole history of `me`). Changes nothing.
  // Errors: not_found for a `peer` never exchanged mail with (or `me` itself).
  virtual Result<PeersResult> peers(const Mailbox& me, const std::optional<Mailbox>& peer);
  // Every sender × recipient pair of distinct mailboxes that exchanged mail, with its figures,
  // stale and order as mail::finish_pairs decides under the policy's stale_after. Changes nothing.
  virtual Result<PairsResult> pairs();
  // Every registered mailbox (retired ones too) plus `human` when it has mail or presence, with
  // the figures of mail::TeamMember counted at the store's clock and the states and order of
  // mail::finish_team under the policy's presence_after and stale_after. A view: changes nothing.
  virtual Result<TeamResult> team();
  // One pass of the redelivery sweep under the policy's [delivery.redelivery] (mail/health.hpp
  // decides each step): nothing when it is not enabled (report.enabled false); with dry_run,
  // what a pass would do, changing nothing either way. Redeliveries are committed in batches of
  // request.batch, escalations one transaction per (sender, peer) with their escalation message;
  // only committed actions are reported, and a failure after some commits is report.stopped.
  // Two sweeps at once never act twice on one delivery. Errors: store errors before anything
  // was committed.
  virtual Result<SweepReport> sweep(const SweepRequest& request);

  // --- Claims for watch (capabilities().claims) ---------------------------------------------

  // Claims, in one write transaction, the first delivery of request.mailbox in inbox order that is
  // unread, unarchived, unexpired, not set aside, matches the filters, whose retry time has come
  // and whose lease is free or has run out, for request.lease_ms from now (the store's clock),
  // with a fresh token; the handler attempt is counted now, so a watcher that dies mid-handler
  // still used one. A first delivery whose attempts are already spent (mail::attempts_spent with
  // request.max_attempts: earlier attempts ended unseen) is set aside in the same transaction and
  // returned as ClaimNext::set_aside instead of claimed. None: ClaimNext::wake_in_ms says when a
  // matching delivery becomes claimable by time alone. Two claimers never get the same delivery
  // while its lease holds.
  virtual Result<ClaimNext> claim_next(const ClaimRequest& request);
  // Extends `claim` to `lease_ms` from now. Errors: conflict when the token no longer holds (the
  // lease ran out and another watcher took it, or it was finished).
  virtual Result<void> renew_claim(const Claim& claim, std::int64_t lease_ms);
  // Ends `claim`: done marks the delivery read and acked; failed keeps it unread and claimable
  // again after retry_after_ms, or sets it aside when its attempts reached max_attempts (watch
  // skips it until mark_unread); released takes back the attempt claim_next counted, as if it had
  // never been claimed. The lease is cleared in every case. Errors: conflict when the token no
  // longer holds (nothing is changed).
  virtual Result<ClaimResult> finish_claim(const Claim& claim, const ClaimFinish& finish);

  // --- Waiting ------------------------------------------------------------------------------

  // A signal that fires when the store may have changed (a hint: re-read after it). nullptr when
  // the provider has none; callers then poll.
  virtual Result<std::unique_ptr<ChangeSignal>> change_signal();

  // --- The event log (capabilities().events; mail/events.hpp) -------------------------------

  // At most `limit` events (capped at k_max_events_page) with a seq above `after_seq`, oldest
  // first, and the oldest seq still kept. Every event returned was committed, and no event with
  // a smaller seq can still appear: a reader that asks again after the last seq it saw misses
  // nothing (PostgreSQL: seqs are allocated in commit order). Changes nothing; waits on
  // change_signal(), never inside a transaction. Default: unsupported.
  virtual Result<EventsPage> events(std::int64_t after_seq, std::size_t limit);
  // Deletes the events `retention` no longer keeps (older than max_age_ms by the store's clock,
  // or beyond the newest max_rows), oldest first, in one transaction; returns how many. sweep and
  // purge run it with the default retention. Default: unsupported.
  virtual Result<std::int64_t> prune_events(const EventRetention& retention);

  // --- Search and transfer (capabilities().search / .transfer) ------------------------------

  // Every record of the store (or those since `since`), in export order, to `sink`.
  virtual Result<void> export_records(const ExportRequest& request, const RecordSink& sink);
  // Stores every record `source` gives, all or nothing, in one transaction: a record identical to
  // one stored is skipped; a mailbox already registered is left as it is; a delivery or key needs
  // its message in the store or earlier in the source. Errors (nothing stored): conflict (the same
  // identity with other content, naming the fields), usage (a delivery or key of an unknown
  // message), the source's own error (a malformed line), store errors.
  virtual Result<ImportReport> import_records(RecordSource& source);
  // Deletes the messages whose every delivery was archived more than request.older_than ago, and
  // those that expired more than request.older_than ago, with their deliveries (or only counts
  // them, with dry_run). Idempotency keys stay: a key whose message was purged still refuses a
  // second send (send: conflict). One transaction.
  virtual Result<PurgeReport> purge(const PurgeRequest& request);
};

// The `unsupported` error for operation `what` ("peers") of a provider named `provider`.
Error unsupported(std::string_view provider, std::string_view what);

} // namespace mailroom::mail
