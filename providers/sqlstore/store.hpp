#pragma once

// SqlStore: mail::Provider over any SQL engine. The mail rules come from mail/compose (decided
// before or inside the write transaction, never here); this layer only stores and queries, with
// every write in one transaction that is run again when the engine reports a transient conflict.
// Split by purpose: send.cpp, lists.cpp, state.cpp, registry.cpp, views.cpp (and one file per
// later feature).

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "db/connection.hpp"
#include "mail/policy.hpp"
#include "mail/provider.hpp"
#include "sqlstore/engine.hpp"
#include "sqlstore/queries.hpp"

namespace mailroom::schedule {
class ZoneCache;
} // namespace mailroom::schedule

namespace mailroom::providers::sqlstore {

class Firer;

// Who is running this process, recorded beside every message's asserted sender.
struct Origin {
  std::int64_t uid = -1;
  std::string host;
  std::int64_t pid = -1;
};

// This process's uid and host name.
Origin current_origin();

// Stores message `m` on `c` (CoreQueries::insert_message, the one place its columns are bound) and
// marks it visible to its sender (Engine::mark_visible). Returns its seq. Errors: the engine's;
// store_error when the insert returns no row.
Result<std::int64_t> insert_message_row(db::Connection& c, const Queries& sql, Engine& engine,
                                        const mail::Message& m);

// Both engines have the SQL of every facet, so the store has them all (mail/facets.hpp).
class SqlStore : public mail::Provider,
                 public mail::Registry,
                 public mail::Views,
                 public mail::Health,
                 public mail::Claims,
                 public mail::EventLog,
                 public mail::Signals,
                 public mail::Transfer,
                 public mail::WholeSends,
                 public mail::Unarchive,
                 public mail::Requests,
                 public mail::Schedules,
                 public mail::Wakes {
public:
  SqlStore(std::unique_ptr<Engine> engine, const Queries& queries, mail::MailPolicy policy, Origin origin);

  mail::Facets facets() override;

  Result<mail::SendReceipt> send(const mail::SendRequest& request) override;
  Result<mail::SendReceipt> reply(const mail::ReplyRequest& request) override;
  Result<mail::ListResult> list(const mail::ListQuery& query) override;
  Result<mail::CheckResult> check(const mail::Mailbox& mailbox, std::size_t limit,
                                  std::optional<std::size_t> body_bytes) override;
  Result<mail::Counts> count(const mail::Mailbox& mailbox) override;
  Result<mail::Message> get(const mail::Mailbox& viewer, const mail::MessageId& id) override;
  Result<mail::Message> read(const mail::Actor& actor, const mail::MessageId& id,
                             const mail::DeliverFn& deliver) override;
  Result<std::optional<mail::Message>> take(const mail::Actor& actor, const mail::MessageId& id,
                                            const mail::DeliverFn& deliver) override;
  Result<mail::ChangeOutcome> change(const mail::Actor& actor, const mail::MessageId& id,
                                     mail::Change change) override;
  Result<std::vector<mail::MessageId>> mark_all_read(const mail::Mailbox& mailbox) override;
  Result<mail::ThreadResult> thread(const mail::Mailbox& viewer,
                                    const std::string& thread_or_message_id) override;

  Result<mail::MessageId> resolve_id(const std::string& typed) override;
  Result<mail::StatusResult> status(const mail::MessageId& id) override;
  Result<mail::TraceResult> trace(const mail::Mailbox& viewer,
                                  const std::string& trace_or_message_id) override;
  Result<std::vector<mail::TraceSummary>> recent_traces(std::size_t limit) override;
  Result<std::vector<mail::OpenDelivery>> open_deliveries(const mail::OpenDeliveriesQuery& query) override;

  Result<mail::Directory> directory() override;
  Result<mail::MailboxInfo> mailbox_info(const mail::Mailbox& name) override;
  Result<std::vector<mail::Agent>> agents() override;
  Result<std::vector<mail::Mailbox>> add_agents(const std::vector<mail::Mailbox>& names) override;
  Result<std::int64_t> remove_agent(const mail::Mailbox& name) override;
  Result<void> touch(const mail::Mailbox& name, std::int64_t min_interval_ms, mail::SeenVia via) override;

  Result<std::unique_ptr<mail::ChangeSignal>> change_signal() override;

  // --- Claims for watch (claims.cpp) ---
  Result<mail::ClaimNext> claim_next(const mail::ClaimRequest& request) override;
  Result<void> renew_claim(const mail::Claim& claim, std::int64_t lease_ms) override;
  Result<mail::ClaimResult> finish_claim(const mail::Claim& claim, const mail::ClaimFinish& finish) override;

  // --- Delivery health: peers (health.cpp) and the redelivery sweep (sweep.cpp) ---
  Result<mail::PeersResult> peers(const mail::Mailbox& me, const std::optional<mail::Mailbox>& peer) override;
  Result<mail::PairsResult> pairs() override;
  Result<mail::TeamResult> team() override; // team.cpp
  Result<mail::SweepReport> sweep(const mail::SweepRequest& request) override;
  // Export, import and purge (transfer.cpp).
  Result<void> export_records(const mail::ExportRequest& request, const mail::RecordSink& sink) override;
  Result<mail::ImportReport> import_records(mail::RecordSource& source) override;
  Result<mail::PurgeReport> purge(const mail::PurgeRequest& request) override;
  // The event log (events.cpp).
  Result<mail::EventsPage> events(std::int64_t after_seq, std::size_t limit) override;
  Result<std::int64_t> prune_events(const mail::EventRetention& retention) override;

  // The life of a request (requests.cpp).
  Result<mail::CancelResult> cancel(const mail::CancelRequest& request) override;
  Result<mail::SendReceipt> respond(const mail::ReplyRequest& request) override;

  // Schedules (schedules.cpp) and their firing (schedule_fire.cpp).
  Result<mail::ScheduleAdded> add_schedule(const mail::ScheduleSpec& spec) override;
  Result<std::vector<mail::Schedule>> schedules(const mail::ScheduleQuery& query) override;
  Result<mail::Schedule> schedule(const mail::Mailbox& from, const std::string& name,
                                  std::size_t history) override;
  Result<mail::Schedule> change_schedule(const mail::ScheduleChange& change) override;
  Result<mail::FireReport> fire(const mail::FireRequest& request) override;
  Result<void> record_firer(mail::FirerKind kind) override;
  Result<mail::FirerStatus> firer_status() override;

  // Wake targets and the wake ledger (wake.cpp).
  Result<void> set_wake_target(const mail::Mailbox& mailbox,
                               const std::optional<mail::WakeTarget>& target) override;
  Result<std::vector<mail::WakeStatus>> wake_statuses() override;
  Result<std::vector<mail::WakeTarget>> wake_targets(const std::vector<mail::Mailbox>& mailboxes) override;
  Result<void> hook_ran(const mail::Mailbox& mailbox) override;
  Result<bool> wake_ready(const mail::MessageId& message, const std::vector<mail::Mailbox>& recipients,
                          const mail::WakeHost& by, mail::Millis cooldown) override;
  Result<mail::WakeClaims> claim_wakes(const mail::WakeClaimRequest& request) override;
  Result<void> finish_wake(const mail::WakeKey& key, const mail::WakeFinish& finish) override;
  Result<std::vector<mail::WakeRow>> wake_ledger(const mail::Mailbox& recipient, std::size_t limit) override;

  // The engine, for tests and maintenance.
  Engine& engine() { return *m_engine; }

protected:
  // Runs `fn(connection)` inside a write transaction and commits it; runs the whole transaction
  // again (a few times) when the engine reports a transient conflict. A result that is an error
  // rolls back.
  template <typename Fn> auto write(Fn&& fn) -> decltype(fn(std::declval<db::Connection&>()));
  // Runs `fn(connection)` once in a write transaction that never waits for a lock held
  // elsewhere (db::TransactionKind::write_if_free): a busy store is ErrorCode::timeout at once,
  // and nothing is retried.
  template <typename Fn> auto write_if_free(Fn&& fn) -> decltype(fn(std::declval<db::Connection&>()));

  // Message `id` as `viewer` sees it on `connection`, body cut to `body_bytes` when set.
  Result<mail::Message> load(db::Connection& connection, const mail::Mailbox& viewer,
                             const mail::MessageId& id, std::optional<std::size_t> body_bytes = {});
  // Records that `name` acted at `now` via `via` on `connection`, in the caller's transaction,
  // unless its presence is newer than `now - min_interval_ms`. A registered mailbox's presence is
  // on its row; `human`, who acts unregistered, has its own presence row (contract: `team` lists
  // `human` when it has mail or presence). Any other unregistered name records nothing.
  Result<void> record_presence(db::Connection& connection, const mail::Mailbox& name, mail::UnixMillis now,
                               std::int64_t min_interval_ms, mail::SeenVia via);
  // Inserts `composed` (message, deliveries, key, registrations, reply effects) on `connection`,
  // recording `events` (changes made before it in the same transaction) with its own.
  Result<void> insert(db::Connection& connection, const mail::Composed& composed,
                      std::vector<mail::EventDraft> events = {});
  // Applies a reply's request `moves` (mail/compose.hpp) on `connection` at `now`, each under its
  // guard (a state never moves back), adding a request.state event by `actor` for each that moved
  // (and mail.unread for a resumed one) to `events`.
  Result<void> apply_moves(db::Connection& connection, const std::vector<mail::RequestMove>& moves,
                           const mail::Mailbox& actor, mail::UnixMillis now,
                           std::vector<mail::EventDraft>& events);
  // A send's stream key (mail::KeyUse), in its transaction, for each planned recipient under the
  // stream's lock: the live copies that suppress it (dedup), or the earlier unread copies it
  // archived for the recipient, acted_by the sender, with their events added to `events`
  // (supersede). Empty when the message has no key.
  Result<std::vector<mail::StreamCopy>> stream_copies(db::Connection& connection,
                                                      const mail::Composed& composed, mail::UnixMillis now,
                                                      std::vector<mail::EventDraft>& events);
  // Writes `drafts` as events stamped `at` on `connection`, in the caller's transaction, as its
  // last statements (PostgreSQL: under the lock that orders seqs, held until COMMIT), and
  // announces the change. Nothing when `drafts` is empty. Errors: the engine's.
  Result<void> record_events(db::Connection& connection, mail::UnixMillis at,
                             const std::vector<mail::EventDraft>& drafts);
  // The earlier send `composed`'s idempotency key names, replayed; nullopt when the key is new or
  // absent. Errors: conflict naming the fields that differ.
  // A send whose commit was lost with the connection (`lost`, reason outcome_unknown): looks
  // `composed`'s id up once on a new connection. Found: the receipt. Absent: `lost` saying it
  // was not stored. Unreachable: `lost` saying the outcome is unknown and how to send it again.
  Result<mail::SendReceipt> settle_unknown(Error lost, const mail::Composed& composed);
  Result<std::optional<mail::SendReceipt>> replay(db::Connection& connection, const mail::Composed& composed);
  Result<mail::Directory> directory_on(db::Connection& connection);
  // status() on `connection` at `now`; `seq` is set to the message's seq.
  Result<mail::StatusResult> status_on(db::Connection& connection, const mail::MessageId& id,
                                       mail::UnixMillis now, std::int64_t& seq);
  // list() for everything but the plain inbox: filters, sent and search (lists_filtered.cpp).
  virtual Result<mail::ListResult> list_filtered(const mail::ListQuery& query);
  Result<mail::UnixMillis> now() { return m_engine->now(); }
  // The live schedule `name` of `from` on `connection` (locked for this write transaction on
  // PostgreSQL). Errors: not_found with suggestions.
  Result<mail::Schedule> live_schedule(db::Connection& connection, const mail::Mailbox& from,
                                       const std::string& name);
  // Fires what is due of schedule `id` on `connection`, in the caller's transaction; nullopt when
  // nothing is (another firer was first). Errors: conflict with reason already_fired.
  Result<std::optional<mail::Fired>> fire_due_one(db::Connection& connection, const std::string& id,
                                                  schedule::ZoneCache& zones, const mail::WakeWhen& wake);
  // FireRequest::run_now.
  Result<mail::FireReport> run_now(const mail::FireRequest& request);
  // Writes `schedule`'s changing columns on `connection`.
  Result<void> update_schedule(db::Connection& connection, const mail::Schedule& schedule);
  // Each delivery's request state of message `id` at `at` (its stored request_state as it reads
  // at `at`; for a delivery without one, schedule::request_state_of): by recipient; empty for a
  // message that expects no reply or no longer exists.
  Result<std::map<mail::Mailbox, std::string>> request_states(db::Connection& connection,
                                                              const mail::MessageId& id, mail::UnixMillis at);

  friend class Firer; // one firing of a schedule (schedule_fire.cpp)

  std::unique_ptr<Engine> m_engine;
  const Queries& m_sql;
  mail::MailPolicy m_policy;
  Origin m_origin;
};

} // namespace mailroom::providers::sqlstore

#include "sqlstore/write.inl"
