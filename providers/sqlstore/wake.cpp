// Wake targets and the wake ledger (mail/facets/wakes.hpp): targets, statuses, the hook's
// timestamp, whether a send's wake could run now, and the ledger's rows. Claiming and finishing a
// wake is wake_claim.cpp.

#include <fmt/format.h>

#include "sqlstore/store.hpp"
#include "sqlstore/wake_rows.hpp"

namespace mailroom::providers::sqlstore {

mail::WakeRow wake_row_from(const db::Statement& row)
{
  mail::WakeRow out;
  out.key.recipient = row.get<std::string>("recipient");
  out.key.message = row.get<std::string>("message");
  out.key.target = row.get<std::string>("target");
  out.key.attempt = row.get<std::int64_t>("attempt");
  out.outcome =
      mail::parse_wake_outcome(row.get<std::string>("outcome")).value_or(mail::WakeOutcome::pending);
  out.reason = row.get<std::string>("reason");
  out.created_at = row.get<std::int64_t>("created_at");
  out.due_at = row.get<std::int64_t>("due_at");
  out.claimed_at = row.get<std::optional<std::int64_t>>("claimed_at");
  out.updated_at = row.get<std::int64_t>("updated_at");
  out.combined = row.get<std::int64_t>("combined");
  out.combined_into = row.get<std::optional<std::string>>("combined_into");
  return out;
}

mail::WakeTarget wake_target_from(const db::Statement& row)
{
  mail::WakeTarget out;
  out.mailbox = row.get<std::string>("mailbox");
  out.target = row.get<std::string>("target");
  out.set_from.host = row.get<std::string>("host");
  out.set_from.uid = row.get<std::int64_t>("uid");
  out.socket = row.get<std::string>("socket");
  out.set_at = row.get<std::int64_t>("set_at");
  return out;
}

mail::WakeRecord wake_record_from(const db::Statement& row)
{
  mail::WakeRecord out;
  out.row = wake_row_from(row);
  out.host.host = row.get<std::string>("host");
  out.host.uid = row.get<std::int64_t>("uid");
  out.socket = row.get<std::string>("socket");
  return out;
}

mail::WakeTargetRecord wake_target_record_from(const db::Statement& row)
{
  return mail::WakeTargetRecord{wake_target_from(row), row.get<std::optional<std::int64_t>>("hook_at")};
}

Result<void> bind_wake_record(db::Statement& statement, const mail::WakeRecord& r)
{
  const mail::WakeRow& w = r.row;
  // Every bound text outlives the statement's run in the caller: `r`'s fields, and the outcome's
  // name, a string literal.
  TRY(statement.bind(w.key.recipient, w.key.message, w.key.target, w.key.attempt));
  TRY(statement.bind_text(5, mail::to_string(w.outcome)));
  TRY(statement.bind_text(6, w.reason));
  TRY(statement.bind_int(7, w.created_at));
  TRY(statement.bind_int(8, w.due_at));
  if (w.claimed_at) {
    TRY(statement.bind_int(9, *w.claimed_at));
  } else {
    TRY(statement.bind_null(9));
  }
  TRY(statement.bind_int(10, w.updated_at));
  TRY(statement.bind_int(11, w.combined));
  if (w.combined_into) {
    TRY(statement.bind_text(12, *w.combined_into));
  } else {
    TRY(statement.bind_null(12));
  }
  TRY(statement.bind_text(13, r.socket));
  TRY(statement.bind_text(14, r.host.host));
  TRY(statement.bind_int(15, r.host.uid));
  return {};
}

Result<void> SqlStore::set_wake_target(const mail::Mailbox& mailbox,
                                       const std::optional<mail::WakeTarget>& target)
{
  TRY(write([&](db::Connection& c) -> Result<bool> {
    if (!target) {
      TRY_ASSIGN(db::Statement * remove, c.cached(m_sql.wakes.remove_target));
      TRY(remove->bind(mailbox));
      TRY(remove->exec());
      return true;
    }
    TRY_ASSIGN(db::Statement * known, c.cached(m_sql.core.select_mailbox));
    TRY(known->bind(mailbox));
    TRY_ASSIGN(const bool found, known->step());
    bool retired = false;
    if (found) {
      retired = known->get<bool>("retired");
      known->reset();
    }
    if (!found || retired) {
      return make_error(ErrorCode::not_found, fmt::format("mailbox \"{}\" is not registered", mailbox));
    }
    TRY_ASSIGN(const mail::UnixMillis now, this->now());
    TRY_ASSIGN(db::Statement * set, c.cached(m_sql.wakes.set_target));
    TRY(set->bind(mailbox, target->target, target->set_from.host, target->set_from.uid, target->socket, now));
    TRY(set->exec());
    return true;
  }));
  return {};
}

Result<std::vector<mail::WakeStatus>> SqlStore::wake_statuses()
{
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  std::map<mail::Mailbox, mail::WakeStatus> by_name;
  TRY_ASSIGN(db::Statement * targets, reader->cached(m_sql.wakes.targets));
  TRY(targets->for_each_row([&](const db::Statement& row) {
    mail::WakeTarget target = wake_target_from(row);
    mail::WakeStatus& status = by_name[target.mailbox];
    status.mailbox = target.mailbox;
    status.target = std::move(target);
  }));
  std::vector<mail::Mailbox> recipients;
  TRY_ASSIGN(db::Statement * names, reader->cached(m_sql.wakes.recipients));
  TRY(names->for_each_row(
      [&](const db::Statement& row) { recipients.push_back(row.get<std::string>("recipient")); }));
  TRY_ASSIGN(db::Statement * newest, reader->cached(m_sql.wakes.newest));
  for (const mail::Mailbox& name : recipients) {
    TRY(newest->bind(name));
    TRY(newest->for_each_row([&](const db::Statement& row) {
      const mail::WakeRow last = wake_row_from(row);
      mail::WakeStatus& status = by_name[name];
      status.mailbox = name;
      status.last_at = last.updated_at;
      status.outcome = last.outcome;
      status.reason = last.reason;
    }));
  }
  std::vector<mail::WakeStatus> out;
  out.reserve(by_name.size());
  for (auto& [name, status] : by_name) {
    out.push_back(std::move(status));
  }
  return out;
}

Result<std::vector<mail::WakeTarget>> SqlStore::wake_targets(const std::vector<mail::Mailbox>& mailboxes)
{
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  TRY_ASSIGN(db::Statement * select, reader->cached(m_sql.wakes.target_of));
  std::vector<mail::WakeTarget> out;
  for (const mail::Mailbox& name : mailboxes) {
    TRY(select->bind(name));
    TRY(select->for_each_row([&](const db::Statement& row) { out.push_back(wake_target_from(row)); }));
  }
  return out;
}

Result<void> SqlStore::hook_ran(const mail::Mailbox& mailbox)
{
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  TRY_ASSIGN(db::Statement * target, reader->cached(m_sql.wakes.target_of));
  TRY(target->bind(mailbox));
  TRY_ASSIGN(const bool has_target, target->step());
  if (!has_target) {
    return {}; // nothing reads hook_at without a target: the hook stays read-only
  }
  target->reset();
  TRY_ASSIGN(const mail::UnixMillis now, this->now());
  auto written = write_if_free([&](db::Connection& c) -> Result<bool> {
    TRY_ASSIGN(db::Statement * ran, c.cached(m_sql.wakes.hook_ran));
    TRY(ran->bind(mailbox, now));
    TRY(ran->exec());
    return true;
  });
  if (!written.ok() && written.error().code != ErrorCode::timeout) {
    return std::move(written).error();
  }
  return {};
}

Result<bool> SqlStore::wake_ready(const mail::MessageId& message,
                                  const std::vector<mail::Mailbox>& recipients, const mail::WakeHost& by,
                                  mail::Millis cooldown)
{
  TRY_ASSIGN(const mail::UnixMillis now, this->now());
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  TRY_ASSIGN(db::Statement * ready, reader->cached(m_sql.wakes.ready));
  for (const mail::Mailbox& recipient : recipients) {
    TRY(ready->bind(recipient, message, by.host, by.uid, now, cooldown));
    TRY_ASSIGN(const bool found, ready->step());
    if (found) {
      ready->reset();
      return true;
    }
  }
  return false;
}

Result<std::vector<mail::WakeRow>> SqlStore::wake_ledger(const mail::Mailbox& recipient, std::size_t limit)
{
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  TRY_ASSIGN(db::Statement * select, reader->cached(m_sql.wakes.ledger));
  TRY(select->bind(recipient, static_cast<std::int64_t>(limit)));
  std::vector<mail::WakeRow> out;
  TRY(select->for_each_row([&](const db::Statement& row) { out.push_back(wake_row_from(row)); }));
  return out;
}

} // namespace mailroom::providers::sqlstore
