// Per-recipient state changes: each is one UPDATE ... WHERE inside BEGIN IMMEDIATE, so two
// processes marking the same message cannot both "change" it, and nothing is read-then-written
// from outside the transaction (reliability.md §1.3).

#include "beads/bead_store.hpp"
#include "beads/rows.hpp"
#include "beads/sql.hpp"

namespace mailroom::providers::beads {

using db::Statement;

Result<mail::ChangeOutcome> BeadStore::change(std::string_view sql, const mail::Mailbox& mailbox,
                                                    const mail::MessageId& id, bool with_time)
{
  const mail::UnixMillis now = m_clock.now();
  TRY_ASSIGN(auto transaction, db::Transaction::begin(m_db, db::TransactionKind::write));
  TRY_ASSIGN(Statement * update, m_db.cached(sql));
  if (with_time) {
    TRY(update->bind(id, mailbox, now));
  } else {
    TRY(update->bind(id, mailbox));
  }
  TRY_ASSIGN(const int changed, update->exec());
  if (changed == 0) {
    // Nothing changed: tell "already so" from an unknown id or a stranger, in the same snapshot.
    TRY_ASSIGN(Statement * lookup, m_db.cached(sql::k_select_delivery_of));
    TRY(lookup->bind(id, mailbox));
    TRY_ASSIGN(const bool exists, lookup->step());
    if (!exists) {
      return detail::not_found(id);
    }
    const bool is_recipient = lookup->get<bool>(1);
    lookup->reset();
    if (!is_recipient) {
      return detail::not_recipient(mailbox, id);
    }
    return mail::ChangeOutcome::already;
  }
  TRY_ASSIGN(Statement * touch, m_db.cached(sql::k_touch_mailbox));
  TRY(touch->bind(mailbox, now));
  TRY(touch->exec());
  TRY(transaction.commit());
  return mail::ChangeOutcome::changed;
}

Result<mail::ChangeOutcome> BeadStore::mark_read(const mail::Mailbox& mailbox,
                                                       const mail::MessageId& id)
{
  return change(sql::k_mark_read, mailbox, id, true);
}

Result<mail::ChangeOutcome> BeadStore::mark_unread(const mail::Mailbox& mailbox,
                                                         const mail::MessageId& id)
{
  return change(sql::k_mark_unread, mailbox, id, false);
}

Result<mail::ChangeOutcome> BeadStore::archive(const mail::Mailbox& mailbox,
                                                     const mail::MessageId& id)
{
  return change(sql::k_archive, mailbox, id, true);
}

Result<mail::ChangeOutcome> BeadStore::unarchive(const mail::Mailbox& mailbox,
                                                       const mail::MessageId& id)
{
  return change(sql::k_unarchive, mailbox, id, false);
}

Result<std::vector<mail::MessageId>> BeadStore::mark_all_read(const mail::Mailbox& mailbox)
{
  const mail::UnixMillis now = m_clock.now();
  TRY_ASSIGN(auto transaction, db::Transaction::begin(m_db, db::TransactionKind::write));
  // The ids first, in inbox order, then one UPDATE of the same rows; both under the write lock.
  TRY_ASSIGN(Statement * select, m_db.cached(sql::k_select_unread_ids));
  TRY(select->bind(mailbox));
  std::vector<mail::MessageId> ids;
  while (true) {
    TRY_ASSIGN(const bool has_row, select->step());
    if (!has_row) {
      break;
    }
    ids.push_back(select->get<std::string>(0));
  }
  if (ids.empty()) {
    return ids;
  }
  TRY_ASSIGN(Statement * update, m_db.cached(sql::k_mark_all_read));
  TRY(update->bind(mailbox, now));
  TRY(update->exec());
  TRY_ASSIGN(Statement * touch, m_db.cached(sql::k_touch_mailbox));
  TRY(touch->bind(mailbox, now));
  TRY(touch->exec());
  TRY(transaction.commit());
  return ids;
}

} // namespace mailroom::providers::beads
