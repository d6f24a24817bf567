// The mailbox registry: first-use registration, agents add/list/remove.

#include <fmt/format.h>

#include "beads/bead_store.hpp"
#include "beads/sql.hpp"

namespace mailroom::providers::beads {

using db::Statement;

Result<void> BeadStore::ensure_registered(const mail::Mailbox& mailbox)
{
  // A plain read first: `check` runs on every prompt and must not take the write lock each time.
  {
    TRY_ASSIGN(Statement * select, m_db.cached(sql::k_select_mailbox));
    TRY(select->bind(mailbox));
    TRY_ASSIGN(const bool known, select->step());
    if (known) {
      select->reset();
      return {};
    }
  }
  TRY_ASSIGN(auto transaction, db::Transaction::begin(m_db, db::TransactionKind::write));
  TRY_ASSIGN(Statement * insert, m_db.cached(sql::k_insert_mailbox));
  TRY(insert->bind(mailbox, m_clock.now()));
  TRY(insert->exec());
  return transaction.commit();
}

Result<std::vector<mail::Mailbox>> BeadStore::active_names()
{
  TRY_ASSIGN(Statement * select, m_db.cached(sql::k_select_active_names));
  std::vector<mail::Mailbox> names;
  while (true) {
    TRY_ASSIGN(const bool has_row, select->step());
    if (!has_row) {
      break;
    }
    names.push_back(select->get<std::string>(0));
  }
  return names;
}

Result<std::vector<mail::Agent>> BeadStore::agents()
{
  TRY_ASSIGN(Statement * select, m_db.cached(sql::k_select_agents));
  std::vector<mail::Agent> out;
  while (true) {
    TRY_ASSIGN(const bool has_row, select->step());
    if (!has_row) {
      break;
    }
    mail::Agent agent;
    agent.name = select->get<std::string>(0);
    agent.registered_at = select->get<std::int64_t>(1);
    agent.last_seen = select->get<std::optional<std::int64_t>>(2);
    agent.unread = select->get<std::int64_t>(3);
    out.push_back(std::move(agent));
  }
  return out;
}

Result<std::vector<mail::Mailbox>> BeadStore::add_agents(const std::vector<mail::Mailbox>& names)
{
  const mail::UnixMillis now = m_clock.now();
  TRY_ASSIGN(auto transaction, db::Transaction::begin(m_db, db::TransactionKind::write));
  std::vector<mail::Mailbox> added;
  for (const auto& name : names) {
    TRY_ASSIGN(Statement * insert, m_db.cached(sql::k_insert_mailbox));
    TRY(insert->bind(name, now));
    TRY_ASSIGN(int changed, insert->exec());
    if (changed == 0) {
      // Already there: a retired mailbox comes back; an active one is not new.
      TRY_ASSIGN(Statement * reactivate, m_db.cached(sql::k_reactivate_mailbox));
      TRY(reactivate->bind(name));
      TRY_ASSIGN(changed, reactivate->exec());
    }
    if (changed > 0) {
      added.push_back(name);
    }
  }
  TRY(transaction.commit());
  return added;
}

Result<void> BeadStore::remove_agent(const mail::Mailbox& name)
{
  TRY_ASSIGN(auto transaction, db::Transaction::begin(m_db, db::TransactionKind::write));
  TRY_ASSIGN(Statement * retire, m_db.cached(sql::k_retire_mailbox));
  TRY(retire->bind(name, m_clock.now()));
  TRY_ASSIGN(const int changed, retire->exec());
  if (changed == 0) {
    return make_error(ErrorCode::not_found,
                            fmt::format("mailbox \"{}\" is not registered", name));
  }
  return transaction.commit();
}

} // namespace mailroom::providers::beads
