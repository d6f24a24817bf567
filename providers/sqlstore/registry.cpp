// The mailbox registry: the directory compose checks recipients against, agents add/list/remove,
// and presence (last_seen).

#include <fmt/format.h>

#include "sqlstore/rows.hpp"
#include "sqlstore/store.hpp"

namespace mailroom::providers::sqlstore {

Result<mail::Directory> SqlStore::directory_on(db::Connection& c)
{
  TRY_ASSIGN(db::Statement * select, c.cached(m_sql.core.select_names));
  mail::Directory directory;
  TRY(select->for_each_row([&](const db::Statement& row) {
    (row.get<bool>("retired") ? directory.retired : directory.active).push_back(row.get<std::string>("name"));
  }));
  return directory;
}

Result<mail::Directory> SqlStore::directory()
{
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  return directory_on(*reader);
}

Result<mail::MailboxInfo> SqlStore::mailbox_info(const mail::Mailbox& name)
{
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  TRY_ASSIGN(db::Statement * select, reader->cached(m_sql.core.select_mailbox));
  TRY(select->bind(name));
  mail::MailboxInfo info;
  TRY_ASSIGN(const bool found, select->step());
  if (found) {
    db::ResetGuard reset(*select);
    info.state =
        select->get<bool>("retired") ? mail::MailboxInfo::State::retired : mail::MailboxInfo::State::active;
    info.last_seen = select->get<std::optional<std::int64_t>>("last_seen");
  }
  return info;
}

Result<std::vector<mail::Agent>> SqlStore::agents()
{
  TRY_ASSIGN(const mail::UnixMillis now, this->now());
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  TRY_ASSIGN(db::Statement * select, reader->cached(m_sql.core.select_agents));
  TRY(select->bind(now));
  std::vector<mail::Agent> out;
  TRY(select->for_each_row([&](const db::Statement& row) {
    mail::Agent agent;
    agent.name = row.get<std::string>("name");
    agent.registered_at = row.get<std::int64_t>("registered_at");
    agent.last_seen = row.get<std::optional<std::int64_t>>("last_seen");
    agent.unread = row.get<std::int64_t>("unread");
    out.push_back(std::move(agent));
  }));
  return out;
}

Result<std::vector<mail::Mailbox>> SqlStore::add_agents(const std::vector<mail::Mailbox>& names)
{
  return write([&](db::Connection& c) -> Result<std::vector<mail::Mailbox>> {
    TRY_ASSIGN(const mail::UnixMillis now, this->now());
    std::vector<mail::Mailbox> added;
    for (const mail::Mailbox& name : names) {
      TRY_ASSIGN(db::Statement * insert, c.cached(m_sql.core.insert_mailbox));
      TRY(insert->bind(name, now));
      TRY_ASSIGN(std::int64_t changed, insert->exec());
      if (changed == 0) {
        // Already there: a retired mailbox comes back; an active one is not new.
        TRY_ASSIGN(db::Statement * reactivate, c.cached(m_sql.core.reactivate_mailbox));
        TRY(reactivate->bind(name));
        TRY_ASSIGN(changed, reactivate->exec());
      }
      if (changed > 0) {
        added.push_back(name);
      }
    }
    return added;
  });
}

Result<std::int64_t> SqlStore::remove_agent(const mail::Mailbox& name)
{
  return write([&](db::Connection& c) -> Result<std::int64_t> {
    TRY_ASSIGN(const mail::UnixMillis now, this->now());
    TRY_ASSIGN(db::Statement * retire, c.cached(m_sql.core.retire_mailbox));
    TRY(retire->bind(name, now));
    TRY_ASSIGN(const std::int64_t changed, retire->exec());
    if (changed == 0) {
      return make_error(ErrorCode::not_found, fmt::format("mailbox \"{}\" is not registered", name));
    }
    TRY_ASSIGN(db::Statement * unread, c.cached(m_sql.core.count_unread));
    TRY(unread->bind(name, now));
    TRY_ASSIGN(const bool has_row, unread->step());
    std::int64_t count = 0;
    if (has_row) {
      count = unread->get<std::int64_t>("unread");
      unread->reset();
    }
    return count;
  });
}

Result<void> SqlStore::touch(const mail::Mailbox& name, std::int64_t min_interval_ms, mail::SeenVia via)
{
  TRY_ASSIGN(const mail::UnixMillis now, this->now());
  if (min_interval_ms > 0) {
    // The fast path stays read-only: no write lock while last_seen is fresh.
    TRY_ASSIGN(mail::MailboxInfo info, mailbox_info(name));
    if ((info.state == mail::MailboxInfo::State::unknown && name != mail::k_human) ||
        (info.last_seen && *info.last_seen > now - min_interval_ms)) {
      return {};
    }
  }
  // Presence never waits (contract "Presence is what the agent did"): skipped when busy.
  TRY(write_if_free([&](db::Connection& c) -> Result<bool> {
    TRY(record_presence(c, name, now, min_interval_ms, via));
    return true;
  }));
  return {};
}

Result<void> SqlStore::record_presence(db::Connection& c, const mail::Mailbox& name, mail::UnixMillis now,
                                       std::int64_t min_interval_ms, mail::SeenVia via)
{
  TRY_ASSIGN(db::Statement * touch, c.cached(m_sql.core.touch_mailbox));
  TRY(touch->bind(name, now, min_interval_ms, mail::to_string(via)));
  TRY_ASSIGN(const std::int64_t touched, touch->exec());
  if (touched == 0 && name == mail::k_human) {
    TRY_ASSIGN(db::Statement * human, c.cached(m_sql.core.touch_unregistered));
    TRY(human->bind(name, now, min_interval_ms, mail::to_string(via)));
    TRY(human->exec());
  }
  return {};
}

} // namespace mailroom::providers::sqlstore
