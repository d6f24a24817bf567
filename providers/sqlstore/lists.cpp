// Reads of one mailbox: the inbox list, the hook predicate, the totals and a thread. Each is one
// indexed query on the read connection (the hook's run in one read transaction, one snapshot).

#include <algorithm>

#include <fmt/format.h>

#include "mail/hook_order.hpp"
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
  std::optional<db::Transaction> snapshot;
  if (limit > 0) {
    TRY_ASSIGN(db::Transaction transaction, db::Transaction::begin(*reader, db::TransactionKind::read));
    snapshot.emplace(std::move(transaction));
    const std::int64_t bound = body_bound(body_bytes);
    const auto wanted = static_cast<std::int64_t>(limit);
    // The hook's order (mail/hook_order.hpp) over its candidates, each read by an index: the
    // oldest deliveries the mailbox owes that are not urgent, and the head of inbox order, as
    // long as the list with those left out (urgent mail leads inbox order).
    TRY_ASSIGN(db::Statement * awaiting, reader->cached(m_sql.core.select_awaiting));
    TRY(awaiting->bind(mailbox, now, bound, wanted));
    TRY_ASSIGN(std::vector<mail::Message> candidates, collect_messages(*awaiting, now));
    const std::size_t owed = candidates.size();
    TRY_ASSIGN(db::Statement * list, reader->cached(m_sql.core.select_unread));
    TRY(list->bind(mailbox, now, bound, wanted + static_cast<std::int64_t>(owed)));
    TRY_ASSIGN(std::vector<mail::Message> head, collect_messages(*list, now));
    for (mail::Message& m : head) {
      const auto owed_end = candidates.begin() + static_cast<std::ptrdiff_t>(owed);
      if (std::none_of(candidates.begin(), owed_end, [&](const mail::Message& a) { return a.id == m.id; })) {
        candidates.push_back(std::move(m));
      }
    }
    mail::sort_for_hook(candidates);
    if (candidates.size() > limit) {
      candidates.resize(limit);
    }
    result.messages = std::move(candidates);
    TRY_ASSIGN(db::Statement * classes, reader->cached(m_sql.core.count_classes));
    TRY(classes->bind(mailbox, now));
    TRY_ASSIGN(const bool has_classes, classes->step());
    if (has_classes) {
      db::ResetGuard reset(*classes);
      result.urgent = classes->get<std::int64_t>("urgent");
      result.owed = classes->get<std::int64_t>("owed");
      result.awaiting = result.owed - classes->get<std::int64_t>("owed_urgent");
    }
  }
  TRY_ASSIGN(db::Statement * count, reader->cached(m_sql.core.count_unread));
  TRY(count->bind(mailbox, now));
  TRY_ASSIGN(const bool has_row, count->step());
  if (has_row) {
    result.unread = count->get<std::int64_t>("unread");
    count->reset();
  }
  if (snapshot) {
    TRY(snapshot->commit());
  }
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
