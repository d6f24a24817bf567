// Export and purge (import is import.cpp). Export reads one snapshot; purge is one write
// transaction, so a failed purge leaves the store as it was. The FTS index, the per-mailbox
// counters and the per-pair times follow every row deleted here through the schema's triggers, as
// they follow send and archive.

#include <fmt/format.h>

#include "sqlstore/rows.hpp"
#include "sqlstore/schedule_rows.hpp"
#include "sqlstore/store.hpp"
#include "sqlstore/transfer_rows.hpp"
#include "sqlstore/wake_rows.hpp"
#include "text/strings.hpp"

namespace mailroom::providers::sqlstore {

Result<void> SqlStore::export_records(const mail::ExportRequest& request, const mail::RecordSink& sink)
{
  TRY_ASSIGN(const mail::UnixMillis now, this->now());
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  TRY_ASSIGN(db::Transaction snapshot, db::Transaction::begin(*reader, db::TransactionKind::read));
  {
    TRY_ASSIGN(db::Statement * select, reader->cached(m_sql.transfer.mailboxes));
    TRY(select->bind());
    TRY(select->for_each_row([&](const db::Statement& row) -> Result<void> {
      mail::MailboxRecord r;
      r.name = row.get<std::string>("name");
      r.registered_at = row.get<std::int64_t>("registered_at");
      r.retired_at = row.get<std::optional<std::int64_t>>("retired_at");
      r.last_seen = row.get<std::optional<std::int64_t>>("last_seen");
      return sink(r);
    }));
  }
  // The order first (small keys), then each message with its deliveries.
  std::vector<std::int64_t> seqs;
  {
    TRY_ASSIGN(db::Statement * select, reader->cached(m_sql.transfer.message_seqs));
    TRY(select->bind(request.since));
    TRY(select->for_each_row(
        [&](const db::Statement& row) { seqs.push_back(row.get<std::int64_t>("seq")); }));
  }
  TRY_ASSIGN(db::Statement * load, reader->cached(m_sql.lists.message_by_seq));
  TRY_ASSIGN(db::Statement * deliveries, reader->cached(m_sql.transfer.deliveries));
  const std::string nobody;
  const std::int64_t whole = body_bound(std::nullopt);
  for (const std::int64_t seq : seqs) {
    TRY(load->bind(seq, nobody, whole));
    TRY_ASSIGN(const bool found, load->step());
    if (!found) {
      continue;
    }
    mail::MessageRecord message{message_from_row(*load, now)};
    load->reset();
    message.message.expired = false; // a view, not stored
    TRY(sink(message));
    TRY(deliveries->bind(seq));
    TRY(deliveries->for_each_row([&](const db::Statement& row) -> Result<void> {
      return sink(delivery_from_row(row, message.message.id));
    }));
  }
  {
    TRY_ASSIGN(db::Statement * select, reader->cached(m_sql.transfer.keys));
    TRY(select->bind(request.since));
    TRY(select->for_each_row(
        [&](const db::Statement& row) -> Result<void> { return sink(key_from_row(row)); }));
  }
  // Schedules and their firings, whatever `since` (they are few, and belong to no message).
  {
    TRY_ASSIGN(db::Statement * select, reader->cached(m_sql.schedules.list));
    TRY(select->bind(std::nullopt, 1));
    TRY(select->for_each_row([&](const db::Statement& row) -> Result<void> {
      return sink(mail::ScheduleRecord{schedule_from_row(row)});
    }));
  }
  {
    TRY_ASSIGN(db::Statement * select, reader->cached(m_sql.schedules.all_firings));
    TRY(select->bind());
    TRY(select->for_each_row([&](const db::Statement& row) -> Result<void> {
      return sink(mail::FiringRecord{row.get<std::string>("schedule"), firing_from_row(row)});
    }));
  }
  // Wake targets and the wake ledger, whatever `since`, as schedules.
  {
    TRY_ASSIGN(db::Statement * select, reader->cached(m_sql.wakes.targets));
    TRY(select->bind());
    TRY(select->for_each_row(
        [&](const db::Statement& row) -> Result<void> { return sink(wake_target_record_from(row)); }));
  }
  {
    TRY_ASSIGN(db::Statement * select, reader->cached(m_sql.wakes.all_rows));
    TRY(select->bind());
    TRY(select->for_each_row(
        [&](const db::Statement& row) -> Result<void> { return sink(wake_record_from(row)); }));
  }
  return snapshot.commit();
}

Result<mail::PurgeReport> SqlStore::purge(const mail::PurgeRequest& request)
{
  const auto run = [&](db::Connection& c) -> Result<mail::PurgeReport> {
    TRY_ASSIGN(const mail::UnixMillis now, this->now());
    mail::PurgeReport report;
    report.dry_run = request.dry_run;
    std::vector<std::int64_t> seqs;
    {
      TRY_ASSIGN(db::Statement * select, c.cached(m_sql.transfer.purgeable));
      TRY(select->bind(now - request.older_than));
      TRY(select->for_each_row([&](const db::Statement& row) {
        seqs.push_back(row.get<std::int64_t>("seq"));
        report.deliveries += row.get<std::int64_t>("deliveries");
      }));
    }
    report.messages = static_cast<std::int64_t>(seqs.size());
    if (request.dry_run) {
      return report;
    }
    TRY_ASSIGN(db::Statement * release, c.cached(m_sql.transfer.release_keys));
    TRY_ASSIGN(db::Statement * drop_deliveries, c.cached(m_sql.transfer.delete_deliveries));
    TRY_ASSIGN(db::Statement * drop_message, c.cached(m_sql.transfer.delete_message));
    for (const std::int64_t seq : seqs) {
      TRY(release->bind(seq));
      TRY(release->exec());
      // While its rows still say who could see it.
      TRY(m_engine->forget_visible(c, seq));
      TRY(drop_deliveries->bind(seq));
      TRY(drop_deliveries->exec());
      TRY(drop_message->bind(seq));
      TRY(drop_message->exec());
    }
    return report;
  };
  if (request.dry_run) {
    TRY_ASSIGN(db::Connection * reader, m_engine->reader());
    TRY_ASSIGN(db::Transaction snapshot, db::Transaction::begin(*reader, db::TransactionKind::read));
    TRY_ASSIGN(mail::PurgeReport report, run(*reader));
    TRY(snapshot.commit());
    return report;
  }
  // First the event log's retention, in its own transaction (a failure there purges nothing).
  TRY(prune_events(mail::EventRetention{}));
  return write(run);
}

} // namespace mailroom::providers::sqlstore
