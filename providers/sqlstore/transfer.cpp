// Export, import and purge. Export reads one snapshot; import and purge are one write transaction
// each, so a failed import or purge leaves the store as it was. The FTS index, the per-mailbox
// counters and the per-pair times follow every row written or deleted here through the schema's
// triggers, as they follow send and archive.

#include <fmt/format.h>

#include "sqlstore/rows.hpp"
#include "sqlstore/store.hpp"
#include "text/strings.hpp"

namespace mailroom::providers::sqlstore {

namespace {

mail::DeliveryRecord delivery_from_row(const db::Statement& row, const mail::MessageId& message)
{
  mail::DeliveryRecord r;
  r.message = message;
  mail::DeliveryStatus& s = r.status;
  s.recipient = row.get<std::string>("recipient");
  s.kind = row.get<std::string>("kind");
  s.delivered_at = row.get<std::int64_t>("delivered_at");
  s.read_at = row.get<std::optional<std::int64_t>>("read_at");
  s.archived_at = row.get<std::optional<std::int64_t>>("archived_at");
  // The stored state: expiry is applied when the record is shown, never written.
  s.ack_state = mail::parse_ack_state(row.get<std::string>("ack_state")).value_or(mail::AckState::none);
  s.acked_at = row.get<std::optional<std::int64_t>>("acked_at");
  s.attempts = row.get<std::int64_t>("attempts");
  s.last_attempt_at = row.get<std::optional<std::int64_t>>("last_attempt_at");
  s.acted_by = row.get<std::optional<std::string>>("acted_by");
  r.next_attempt_at = row.get<std::optional<std::int64_t>>("next_attempt_at");
  r.handler_attempts = row.get<std::int64_t>("handler_attempts");
  r.retry_at = row.get<std::optional<std::int64_t>>("retry_at");
  r.set_aside_at = row.get<std::optional<std::int64_t>>("set_aside_at");
  // As stored: expiry is never written (mail::effective_request_state applies it when shown).
  if (const auto request = row.get<std::optional<std::string>>("request_state")) {
    s.request_state = mail::parse_request_state(*request);
  }
  s.request_state_at = row.get<std::optional<std::int64_t>>("request_state_at");
  s.expires_at = row.get<std::optional<std::int64_t>>("expires_at");
  return r;
}

mail::KeyRecord key_from_row(const db::Statement& row)
{
  mail::KeyRecord r;
  r.sender = row.get<std::string>("sender");
  r.key = row.get<std::string>("key");
  r.fingerprint = row.get<std::string>("fingerprint");
  r.message = row.get<std::optional<std::string>>("message");
  r.created_at = row.get<std::int64_t>("created_at");
  return r;
}

Error differs(std::string_view what, const std::vector<std::string>& fields)
{
  return make_error(ErrorCode::conflict,
                    fmt::format("{} differs from the one in the store ({})", what, text::join(fields, ", ")),
                    "nothing was imported");
}

// One import: the records so far, on the write connection of its transaction.
class Importer {
public:
  Importer(db::Connection& c, const Queries& sql, Engine& engine) : m_c(c), m_sql(sql), m_engine(engine) {}

  Result<void> operator()(const mail::MailboxRecord& r)
  {
    // The registry is the store's own state: a name it knows is left as it is.
    TRY_ASSIGN(db::Statement * exists, m_c.cached(m_sql.transfer.mailbox_exists));
    TRY(exists->bind(r.name));
    TRY_ASSIGN(const bool found, exists->step());
    if (found) {
      exists->reset();
      ++report.skipped;
      return {};
    }
    TRY_ASSIGN(db::Statement * insert, m_c.cached(m_sql.transfer.insert_mailbox));
    TRY(insert->bind(r.name, r.registered_at, r.retired_at, r.last_seen));
    TRY(insert->exec());
    ++report.added;
    return {};
  }

  Result<void> operator()(const mail::MessageRecord& r)
  {
    const mail::Message& m = r.message;
    TRY_ASSIGN(const std::optional<std::int64_t> stored, seq_of(m.id));
    if (stored) {
      TRY_ASSIGN(db::Statement * load, m_c.cached(m_sql.lists.message_by_seq));
      const std::string nobody;
      TRY(load->bind(*stored, nobody, body_bound(std::nullopt)));
      TRY_ASSIGN(const bool found, load->step());
      if (!found) {
        return make_error(ErrorCode::store_error, fmt::format("message {} vanished during the import", m.id));
      }
      db::ResetGuard reset(*load);
      const auto fields = mail::differences(mail::MessageRecord{message_from_row(*load, 0)}, r);
      if (!fields.empty()) {
        return differs(fmt::format("message {}", m.id), fields);
      }
      ++report.skipped;
      return {};
    }
    TRY_ASSIGN(m_last_seq, insert_message_row(m_c, m_sql, m_engine, m));
    m_last_id = m.id;
    ++report.added;
    ++report.messages;
    return {};
  }

  Result<void> operator()(const mail::DeliveryRecord& r)
  {
    TRY_ASSIGN(const std::int64_t seq, required_seq(r.message, "delivery"));
    const mail::DeliveryStatus& s = r.status;
    {
      TRY_ASSIGN(db::Statement * select, m_c.cached(m_sql.transfer.delivery));
      TRY(select->bind(seq, s.recipient));
      TRY_ASSIGN(const bool found, select->step());
      if (found) {
        db::ResetGuard reset(*select);
        const auto fields = mail::differences(delivery_from_row(*select, r.message), r);
        if (!fields.empty()) {
          return differs(fmt::format("delivery of {} to {}", r.message, s.recipient), fields);
        }
        ++report.skipped;
        return {};
      }
    }
    const std::string state(mail::to_string(s.ack_state));
    std::optional<std::string_view> request;
    if (s.request_state) {
      request = mail::to_string(*s.request_state);
    }
    TRY_ASSIGN(db::Statement * insert, m_c.cached(m_sql.transfer.insert_delivery));
    TRY(insert->bind(seq, s.recipient, s.kind, s.delivered_at, s.read_at, s.archived_at, state, s.attempts,
                     s.last_attempt_at, r.next_attempt_at, s.acted_by, r.handler_attempts, r.retry_at,
                     r.set_aside_at, request, s.request_state_at, r.own_expiry, s.expires_at));
    TRY(insert->exec());
    TRY(m_engine.mark_visible(m_c, s.recipient, seq));
    if (s.acked_at) {
      TRY_ASSIGN(db::Statement * ack, m_c.cached(m_sql.transfer.set_acked_at));
      TRY(ack->bind(seq, s.recipient, *s.acked_at));
      TRY(ack->exec());
    }
    delivered = true;
    ++report.added;
    return {};
  }

  Result<void> operator()(const mail::KeyRecord& r)
  {
    {
      TRY_ASSIGN(db::Statement * select, m_c.cached(m_sql.transfer.key));
      TRY(select->bind(r.sender, r.key));
      TRY_ASSIGN(const bool found, select->step());
      if (found) {
        db::ResetGuard reset(*select);
        const auto fields = mail::differences(key_from_row(*select), r);
        if (!fields.empty()) {
          return differs(fmt::format("idempotency key \"{}\" of {}", text::cap_for_echo(r.key), r.sender),
                         fields);
        }
        ++report.skipped;
        return {};
      }
    }
    std::optional<std::int64_t> seq;
    if (r.message) {
      TRY_ASSIGN(seq, required_seq(*r.message, "idempotency key"));
    }
    TRY_ASSIGN(db::Statement * insert, m_c.cached(m_sql.transfer.insert_key));
    TRY(insert->bind(r.sender, r.key, r.fingerprint, seq, r.created_at));
    TRY(insert->exec());
    ++report.added;
    return {};
  }

  mail::ImportReport report;
  bool delivered = false; // an unread delivery may have arrived: waiters should look

private:
  Result<std::optional<std::int64_t>> seq_of(const mail::MessageId& id)
  {
    if (id == m_last_id) {
      return std::optional<std::int64_t>(m_last_seq);
    }
    TRY_ASSIGN(db::Statement * select, m_c.cached(m_sql.transfer.message_seq));
    TRY(select->bind(id));
    TRY_ASSIGN(const bool found, select->step());
    if (!found) {
      return std::optional<std::int64_t>();
    }
    db::ResetGuard reset(*select);
    m_last_id = id;
    m_last_seq = select->get<std::int64_t>("seq");
    return std::optional<std::int64_t>(m_last_seq);
  }

  Result<std::int64_t> required_seq(const mail::MessageId& id, std::string_view what)
  {
    TRY_ASSIGN(const std::optional<std::int64_t> seq, seq_of(id));
    if (!seq) {
      return make_error(
          ErrorCode::usage,
          fmt::format("{} record names message {}, which is neither earlier in the import nor in the store",
                      what, text::cap_for_echo(id)));
    }
    return *seq;
  }

  db::Connection& m_c;
  const Queries& m_sql;
  Engine& m_engine;
  mail::MessageId m_last_id;
  std::int64_t m_last_seq = 0;
};

} // namespace

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
  return snapshot.commit();
}

Result<mail::ImportReport> SqlStore::import_records(mail::RecordSource& source)
{
  // One transaction, not run again on a transient conflict: the source can be read only once.
  TRY_ASSIGN(db::Connection * writer, m_engine->writer());
  TRY_ASSIGN(db::Transaction transaction, db::Transaction::begin(*writer, db::TransactionKind::write));
  Importer importer(*writer, m_sql, *m_engine);
  for (;;) {
    TRY_ASSIGN(std::optional<mail::Record> record, source.next());
    if (!record) {
      break;
    }
    TRY(mail::check_record(*record));
    TRY(std::visit(importer, *record));
  }
  if (importer.delivered) {
    TRY(m_engine->announce_delivery(*writer));
  }
  TRY(transaction.commit());
  return importer.report;
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
