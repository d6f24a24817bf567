// The redelivery sweep (contract "The redelivery sweep"): one pass over the due deliveries, in
// two phases.
//  1. Redeliveries, in batches: one write transaction reads up to `batch` due deliveries that
//     have attempts left (reading them inside the transaction claims them: SQLite serialises
//     writers, PostgreSQL's SQL locks them SKIP LOCKED) and redelivers each; an attempt is
//     reported only once its transaction committed.
//  2. Escalations, one transaction per (sender, peer) pair: its due deliveries that used their
//     attempts become escalated and the one escalation message about them is stored, together.
//     Escalated deliveries leave the due set, so nothing is escalated twice.
// A delivery acted on in this pass is not taken again in it (last_attempt_at >= the pass start),
// so even a zero wait cannot make a pass run forever. What is due, what it gets and what the
// escalation says come from mail/health.hpp.

#include <fmt/format.h>

#include "mail/compose.hpp"
#include "mail/health.hpp"
#include "sqlstore/rows.hpp"
#include "sqlstore/store.hpp"

namespace mailroom::providers::sqlstore {

namespace {

struct DueRow {
  std::int64_t seq = 0;
  mail::DueDelivery delivery;
};

Result<std::vector<DueRow>> read_due(db::Statement& select)
{
  std::vector<DueRow> rows;
  TRY(select.for_each_row([&](const db::Statement& row) {
    DueRow due;
    due.seq = row.get<std::int64_t>("message");
    due.delivery.id = row.get<std::string>("id");
    due.delivery.sender = row.get<std::string>("sender");
    due.delivery.recipient = row.get<std::string>("recipient");
    due.delivery.subject = row.get<std::string>("subject");
    due.delivery.thread_id = row.get<std::string>("thread_id");
    due.delivery.created_at = row.get<std::int64_t>("created_at");
    due.delivery.attempts = row.get<std::int64_t>("attempts");
    rows.push_back(std::move(due));
  }));
  return rows;
}

mail::Redelivery redelivery_of(const mail::DueDelivery& due, std::int64_t attempt,
                               const mail::RedeliverySchedule& s)
{
  return mail::Redelivery{due.id, due.sender, due.recipient, due.subject, attempt, s.max_attempts};
}

struct Batch {
  std::size_t selected = 0;
  std::vector<mail::Redelivery> done;
};

struct Pair {
  mail::Mailbox sender;
  mail::Mailbox recipient;
};

} // namespace

Result<mail::SweepReport> SqlStore::sweep(const mail::SweepRequest& request)
{
  const mail::RedeliverySchedule& schedule = m_policy.redelivery;
  const std::int64_t max_attempts = schedule.max_attempts;
  const HealthQueries& sql = m_sql.health;
  mail::SweepReport report;
  report.enabled = schedule.enabled;
  report.dry_run = request.dry_run;
  if (!request.dry_run) {
    // Every sweep but a dry run keeps the event log's retention, redelivery enabled or not.
    TRY(prune_events(mail::EventRetention{}));
  }
  if (!schedule.enabled && !request.dry_run) {
    return report;
  }
  TRY_ASSIGN(const mail::UnixMillis pass_start, now());
  const std::int64_t batch_size = request.batch == 0 ? 1 : static_cast<std::int64_t>(request.batch);

  // The pairs with due deliveries that used their attempts, on `c`.
  const auto due_pairs = [&](db::Connection& c, mail::UnixMillis at) -> Result<std::vector<Pair>> {
    TRY_ASSIGN(db::Statement * select, c.cached(sql.select_due_pairs));
    TRY(select->bind(at, request.from, pass_start, max_attempts));
    std::vector<Pair> pairs;
    TRY(select->for_each_row([&](const db::Statement& row) {
      pairs.push_back(Pair{row.get<std::string>("sender"), row.get<std::string>("recipient")});
    }));
    return pairs;
  };
  const auto due_of_pair = [&](db::Connection& c, const Pair& pair,
                               mail::UnixMillis at) -> Result<std::vector<DueRow>> {
    TRY_ASSIGN(db::Statement * select, c.cached(sql.select_due_of_pair));
    TRY(select->bind(at, pair.sender, pair.recipient, pass_start, max_attempts));
    return read_due(*select);
  };

  if (request.dry_run) {
    // The same reads in a write transaction that is rolled back: what a pass would take now.
    TRY_ASSIGN(db::Connection * c, m_engine->writer());
    TRY_ASSIGN(db::Transaction transaction, db::Transaction::begin(*c, db::TransactionKind::write));
    TRY_ASSIGN(db::Statement * select, c->cached(sql.select_due));
    TRY(select->bind(pass_start, request.from, pass_start, max_attempts, k_unbounded));
    TRY_ASSIGN(std::vector<DueRow> rows, read_due(*select));
    for (const DueRow& row : rows) {
      const auto step = mail::redelivery_step(row.delivery.attempts, pass_start, schedule);
      report.redelivered.push_back(redelivery_of(row.delivery, step.attempt, schedule));
    }
    TRY_ASSIGN(std::vector<Pair> pairs, due_pairs(*c, pass_start));
    for (const Pair& pair : pairs) {
      TRY_ASSIGN(std::vector<DueRow> gave_up, due_of_pair(*c, pair, pass_start));
      mail::Escalation escalation{
          pair.sender, pair.recipient, {}, mail::escalation_recipient(pair.sender, schedule), {}};
      for (const DueRow& row : gave_up) {
        escalation.ids.push_back(row.delivery.id);
      }
      if (!escalation.ids.empty()) {
        report.escalated.push_back(std::move(escalation));
      }
    }
    return report; // the transaction rolls back: nothing changed
  }

  // Phase 1: redeliveries, one transaction per batch.
  for (;;) {
    auto batch = write([&](db::Connection& c) -> Result<Batch> {
      TRY_ASSIGN(const mail::UnixMillis now, this->now());
      Batch out;
      std::vector<DueRow> rows;
      {
        TRY_ASSIGN(db::Statement * select, c.cached(sql.select_due));
        TRY(select->bind(now, request.from, pass_start, max_attempts, batch_size));
        TRY_ASSIGN(rows, read_due(*select));
      }
      out.selected = rows.size();
      TRY_ASSIGN(db::Statement * redeliver, c.cached(sql.redeliver));
      std::vector<mail::EventDraft> events;
      for (const DueRow& row : rows) {
        const mail::DueDelivery& due = row.delivery;
        const auto step = mail::redelivery_step(due.attempts, now, schedule);
        TRY(redeliver->bind(row.seq, due.recipient, now, step.next_attempt_at, due.attempts));
        TRY_ASSIGN(const std::int64_t changed, redeliver->exec());
        if (changed == 1) {
          out.done.push_back(redelivery_of(due, step.attempt, schedule));
          // Delivered again: new in the recipient's inbox, as a send is.
          events.push_back(mail::EventDraft{mail::EventType::sent, due.id, due.recipient, due.sender});
        }
      }
      TRY(record_events(c, now, events)); // announces the redeliveries
      return out;
    });
    if (!batch.ok()) {
      report.stopped = std::move(batch).error();
      return report;
    }
    for (mail::Redelivery& done : batch->done) {
      report.redelivered.push_back(std::move(done));
    }
    if (batch->selected < static_cast<std::size_t>(batch_size) || batch->done.empty()) {
      break;
    }
  }

  // Phase 2: escalations, one transaction per dark (sender, peer) pair.
  std::vector<Pair> pairs;
  {
    TRY_ASSIGN(const mail::UnixMillis now, this->now());
    TRY_ASSIGN(db::Connection * reader, m_engine->reader());
    auto listed = due_pairs(*reader, now);
    if (!listed.ok()) {
      report.stopped = std::move(listed).error();
      return report;
    }
    pairs = std::move(listed).value();
  }
  const mail::MailPolicy policy = mail::escalation_policy(m_policy);
  for (const Pair& pair : pairs) {
    auto escalated = write([&](db::Connection& c) -> Result<std::optional<mail::Escalation>> {
      TRY_ASSIGN(const mail::UnixMillis now, this->now());
      // Read again inside the transaction: another sweep may have taken them meanwhile.
      TRY_ASSIGN(std::vector<DueRow> rows, due_of_pair(c, pair, now));
      mail::DarkPeer dark{pair.sender, pair.recipient, {}, std::nullopt};
      TRY_ASSIGN(db::Statement * escalate, c.cached(sql.escalate));
      for (const DueRow& row : rows) {
        TRY(escalate->bind(row.seq, row.delivery.recipient, row.delivery.attempts));
        TRY_ASSIGN(const std::int64_t changed, escalate->exec());
        if (changed == 1) {
          dark.gave_up.push_back(row.delivery);
        }
      }
      if (dark.gave_up.empty()) {
        return std::optional<mail::Escalation>();
      }
      {
        TRY_ASSIGN(db::Statement * seen, c.cached(m_sql.core.select_mailbox));
        TRY(seen->bind(pair.recipient));
        TRY_ASSIGN(const bool known, seen->step());
        if (known) {
          db::ResetGuard reset(*seen);
          dark.peer_last_seen = seen->get<std::optional<std::int64_t>>("last_seen");
        }
      }
      mail::SendRequest message = mail::escalation_request(dark, schedule, now, m_policy.presence_after);
      message.seen_via.reset(); // the sweep sent it: nobody's presence
      TRY_ASSIGN(mail::Directory directory, directory_on(c));
      TRY_ASSIGN(mail::Composed composed, mail::compose_send(message, directory, policy,
                                                             mail::Stamp{now, m_origin.uid, m_origin.host}));
      TRY(insert(c, composed));
      mail::Escalation out{pair.sender, pair.recipient, {}, message.to.front(), composed.message.id};
      for (const mail::DueDelivery& due : dark.gave_up) {
        out.ids.push_back(due.id);
      }
      return std::optional<mail::Escalation>(std::move(out));
    });
    if (!escalated.ok()) {
      report.stopped = std::move(escalated).error();
      return report;
    }
    if (*escalated) {
      report.escalated.push_back(std::move(**escalated));
    }
  }
  return report;
}

} // namespace mailroom::providers::sqlstore
