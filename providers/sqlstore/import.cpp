// Import: every record of an export, all or nothing, in one write transaction, so a failed import
// leaves the store as it was. A record identical to one stored is skipped; one with the same
// identity and other content is a conflict naming the fields.

#include <fmt/format.h>

#include "sqlstore/rows.hpp"
#include "sqlstore/schedule_rows.hpp"
#include "sqlstore/store.hpp"
#include "sqlstore/transfer_rows.hpp"
#include "sqlstore/wake_rows.hpp"
#include "text/strings.hpp"

namespace mailroom::providers::sqlstore {

namespace {

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
    if (m.schedule && m.slot) {
      TRY_ASSIGN(db::Statement * scheduled, m_c.cached(m_sql.schedules.insert_scheduled_message));
      TRY(scheduled->bind(m_last_seq, *m.schedule, *m.slot));
      TRY(scheduled->exec());
    }
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
                     s.last_attempt_at, s.next_attempt_at, s.acted_by, s.handler_attempts, s.retry_at,
                     s.set_aside_at, request, s.request_state_at, r.own_expiry, s.expires_at));
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

  Result<void> operator()(const mail::ScheduleRecord& r)
  {
    {
      TRY_ASSIGN(db::Statement * select, m_c.cached(m_sql.schedules.by_id));
      TRY(select->bind(r.schedule.id));
      TRY_ASSIGN(const bool found, select->step());
      if (found) {
        db::ResetGuard reset(*select);
        const auto fields = mail::differences(mail::ScheduleRecord{schedule_from_row(*select)}, r);
        if (!fields.empty()) {
          return differs(fmt::format("schedule {} ({})", r.schedule.spec.name, r.schedule.id), fields);
        }
        ++report.skipped;
        return {};
      }
    }
    if (!r.schedule.ended_at) {
      // One live schedule per owner and name: a live one of another id is a conflict.
      TRY_ASSIGN(db::Statement * by_name, m_c.cached(m_sql.schedules.by_name));
      TRY(by_name->bind(r.schedule.spec.from, r.schedule.spec.name));
      TRY_ASSIGN(const bool found, by_name->step());
      if (found) {
        db::ResetGuard reset(*by_name);
        if (by_name->is_null(by_name->column_index("ended_at"))) {
          return make_error(ErrorCode::conflict,
                            fmt::format("{} already has a live schedule named \"{}\"", r.schedule.spec.from,
                                        r.schedule.spec.name),
                            "nothing was imported");
        }
      }
    }
    TRY_ASSIGN(db::Statement * insert, m_c.cached(m_sql.schedules.insert));
    const ScheduleColumns columns(r.schedule);
    TRY(columns.bind_insert(*insert));
    TRY(insert->exec());
    ++report.added;
    return {};
  }

  Result<void> operator()(const mail::FiringRecord& r)
  {
    {
      TRY_ASSIGN(db::Statement * schedule, m_c.cached(m_sql.schedules.by_id));
      TRY(schedule->bind(r.schedule));
      TRY_ASSIGN(const bool found, schedule->step());
      if (!found) {
        return make_error(
            ErrorCode::usage,
            fmt::format("firing record names schedule {}, which is neither earlier in the import "
                        "nor in the store",
                        text::cap_for_echo(r.schedule)));
      }
      schedule->reset();
    }
    {
      TRY_ASSIGN(db::Statement * select, m_c.cached(m_sql.schedules.firing));
      TRY(select->bind(r.schedule, r.firing.slot, mail::to_string(r.firing.kind)));
      TRY_ASSIGN(const bool found, select->step());
      if (found) {
        db::ResetGuard reset(*select);
        const auto fields = mail::differences(mail::FiringRecord{r.schedule, firing_from_row(*select)}, r);
        if (!fields.empty()) {
          return differs(fmt::format("firing of {} at {}", r.schedule, r.firing.slot), fields);
        }
        ++report.skipped;
        return {};
      }
    }
    TRY_ASSIGN(db::Statement * insert, m_c.cached(m_sql.schedules.insert_firing));
    TRY(bind_firing(*insert, r.schedule, r.firing));
    TRY(insert->exec());
    ++report.added;
    return {};
  }

  Result<void> operator()(const mail::WakeTargetRecord& r)
  {
    {
      TRY_ASSIGN(db::Statement * select, m_c.cached(m_sql.wakes.target_of));
      TRY(select->bind(r.target.mailbox));
      TRY_ASSIGN(const bool found, select->step());
      if (found) {
        db::ResetGuard reset(*select);
        const auto fields = mail::differences(wake_target_record_from(*select), r);
        if (!fields.empty()) {
          return differs(fmt::format("wake target of {}", r.target.mailbox), fields);
        }
        ++report.skipped;
        return {};
      }
    }
    const mail::WakeTarget& t = r.target;
    TRY_ASSIGN(db::Statement * insert, m_c.cached(m_sql.wakes.import_target));
    TRY(insert->bind(t.mailbox, t.target, t.set_from.host, t.set_from.uid, t.socket, t.set_at, r.hook_at));
    TRY(insert->exec());
    ++report.added;
    return {};
  }

  Result<void> operator()(const mail::WakeRecord& r)
  {
    {
      TRY_ASSIGN(db::Statement * select, m_c.cached(m_sql.wakes.row));
      TRY(select->bind(r.row.key.recipient, r.row.key.message, r.row.key.target, r.row.key.attempt));
      TRY_ASSIGN(const bool found, select->step());
      if (found) {
        db::ResetGuard reset(*select);
        const auto fields = mail::differences(wake_record_from(*select), r);
        if (!fields.empty()) {
          return differs(fmt::format("wake of {} for {}", r.row.key.recipient, r.row.key.message), fields);
        }
        ++report.skipped;
        return {};
      }
    }
    TRY_ASSIGN(db::Statement * insert, m_c.cached(m_sql.wakes.import_row));
    TRY(bind_wake_record(*insert, r));
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

} // namespace mailroom::providers::sqlstore
