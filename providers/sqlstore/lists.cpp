// Reads of one mailbox: the inbox list, the hook predicate, the totals and a thread. Each is one
// indexed query on the read connection (the hook's check is one statement, one snapshot).

#include <algorithm>

#include <fmt/format.h>

#include "sqlstore/rows.hpp"
#include "sqlstore/store.hpp"

namespace mailroom::providers::sqlstore {

namespace {

std::int64_t limit_bound(std::optional<std::size_t> limit)
{
  return limit ? static_cast<std::int64_t>(*limit) : k_unbounded;
}

} // namespace

Result<mail::Counts> SqlStore::count(const mail::Mailbox& mailbox)
{
  TRY_ASSIGN(const mail::UnixMillis now, this->now());
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  TRY_ASSIGN(db::Statement * select, reader->cached(m_sql.core.count));
  TRY(select->bind(mailbox, now));
  mail::Counts counts;
  TRY_ASSIGN(const bool has_row, select->step());
  if (has_row) {
    db::ResetGuard reset(*select);
    counts.total = select->get<std::int64_t>("total");
    counts.unread = select->get<std::int64_t>("unread");
  }
  return counts;
}

Result<mail::CheckResult> SqlStore::check(const mail::Mailbox& mailbox, std::size_t limit,
                                          std::optional<std::size_t> body_bytes)
{
  TRY_ASSIGN(const mail::UnixMillis now, this->now());
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  mail::CheckResult result;
  if (limit == 0) {
    // The predicate: the count only (the bead store's counters, an aggregate on PostgreSQL).
    TRY_ASSIGN(db::Statement * count, reader->cached(m_sql.core.count_unread));
    TRY(count->bind(mailbox, now));
    TRY_ASSIGN(const bool has_row, count->step());
    if (has_row) {
      db::ResetGuard reset(*count);
      result.unread = count->get<std::int64_t>("unread");
    }
    return result;
  }
  // The hook's list and its counts in one statement (one snapshot): mail/hook_order.hpp's order
  // and count_hook_classes's counts.
  TRY_ASSIGN(db::Statement * select, reader->cached(m_sql.core.select_hook));
  TRY(select->bind(mailbox, now, body_bound(body_bytes), static_cast<std::int64_t>(limit)));
  TRY(select->for_each_row([&](const db::Statement& row) {
    if (result.messages.empty()) {
      result.unread = row.get<std::int64_t>("unread_count");
      result.urgent = row.get<std::int64_t>("urgent_count");
      result.awaiting = row.get<std::int64_t>("awaiting_count");
    }
    result.messages.push_back(message_from_row(row, now));
  }));
  return result;
}

Result<mail::ListResult> SqlStore::list(const mail::ListQuery& query)
{
  if (query.box != mail::Box::inbox || query.filters.any()) {
    return list_filtered(query);
  }
  TRY_ASSIGN(const mail::UnixMillis now, this->now());
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  TRY_ASSIGN(db::Transaction snapshot, db::Transaction::begin(*reader, db::TransactionKind::read));
  TRY_ASSIGN(db::Statement * select,
             reader->cached(query.include_read ? m_sql.core.select_open : m_sql.core.select_unread));
  const std::int64_t bound = body_bound(query.body_bytes);
  TRY(select->bind(query.mailbox, now, bound, limit_bound(query.limit)));
  mail::ListResult result;
  TRY(select->for_each_row([&](const db::Statement& row) {
    result.messages.push_back(mail::ListedMessage{message_from_row(row, now), std::nullopt});
  }));
  TRY_ASSIGN(db::Statement * count, reader->cached(m_sql.core.count));
  TRY(count->bind(query.mailbox, now));
  TRY_ASSIGN(const bool has_row, count->step());
  if (has_row) {
    db::ResetGuard reset(*count);
    const std::int64_t total = count->get<std::int64_t>("total");
    result.unread = count->get<std::int64_t>("unread");
    result.total = query.include_read ? total : result.unread;
  }
  TRY(snapshot.commit());
  return result;
}

Result<mail::ThreadResult> SqlStore::thread(const mail::Mailbox& viewer,
                                            const std::string& thread_or_message_id)
{
  TRY_ASSIGN(const mail::UnixMillis now, this->now());
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  mail::ThreadResult result;
  {
    TRY_ASSIGN(db::Statement * resolve, reader->cached(m_sql.core.resolve_thread));
    TRY(resolve->bind(thread_or_message_id));
    TRY_ASSIGN(const bool found, resolve->step());
    if (!found) {
      return make_error(ErrorCode::not_found, fmt::format("thread \"{}\" not found", thread_or_message_id));
    }
    db::ResetGuard reset(*resolve);
    result.thread_id = resolve->get<std::string>("thread_id");
  }
  TRY_ASSIGN(db::Statement * select, reader->cached(m_sql.core.select_thread));
  TRY(select->bind(result.thread_id, viewer, body_bound(std::nullopt)));
  TRY_ASSIGN(result.messages, collect_messages(*select, now));
  return result;
}

} // namespace mailroom::providers::sqlstore
