// The event log (mail/events.hpp): the rows every change writes in its own transaction, read
// after a seq, and pruned to the retention. Writes put their events last in the transaction
// (record_events), so that on PostgreSQL the lock that orders seqs is held only until COMMIT.

#include <algorithm>

#include <fmt/format.h>

#include "sqlstore/store.hpp"

namespace mailroom::providers::sqlstore {

namespace {

// The single-column value of a one-row statement; nullopt when it returned no row or NULL.
Result<std::optional<std::int64_t>> single(db::Statement& statement, std::string_view column)
{
  TRY_ASSIGN(const bool has_row, statement.step());
  if (!has_row) {
    return std::optional<std::int64_t>();
  }
  db::ResetGuard reset(statement);
  return statement.get<std::optional<std::int64_t>>(column);
}

} // namespace

Result<void> SqlStore::record_events(db::Connection& c, mail::UnixMillis at,
                                     const std::vector<mail::EventDraft>& drafts)
{
  if (drafts.empty()) {
    return {};
  }
#ifdef MAILROOM_BENCH_NO_EVENTS
  // The benchmark's baseline build (CMake option MAILROOM_BENCH_NO_EVENTS): as before the log.
  (void)at;
#else
  const EventQueries& sql = m_sql.events;
  if (!sql.lock.empty()) {
    TRY_ASSIGN(db::Statement * lock, c.cached(sql.lock));
    TRY(lock->exec());
  }
  TRY_ASSIGN(db::Statement * insert, c.cached(sql.insert));
  for (const mail::EventDraft& draft : drafts) {
    TRY(insert->bind(at, mail::to_string(draft.type), draft.message_id, draft.mailbox, draft.actor));
    TRY(insert->exec());
  }
#endif
  // A change wakes waiters (PostgreSQL: NOTIFY at COMMIT; SQLite's signal sees every commit).
  return m_engine->announce_delivery(c);
}

Result<mail::EventsPage> SqlStore::events(std::int64_t after_seq, std::size_t limit)
{
  const EventQueries& sql = m_sql.events;
  TRY_ASSIGN(db::Connection * reader, m_engine->reader());
  mail::EventsPage page;
  const auto cap = static_cast<std::int64_t>(std::min(limit, mail::k_max_events_page));
  {
    TRY_ASSIGN(db::Statement * after, reader->cached(sql.after));
    TRY(after->bind(std::max<std::int64_t>(after_seq, 0), cap));
    std::optional<Error> bad;
    TRY(after->for_each_row([&](const db::Statement& row) {
      mail::Event event;
      event.seq = row.get<std::int64_t>("seq");
      event.at = row.get<std::int64_t>("at");
      const auto type_name = row.get<std::string>("type");
      const auto type = mail::parse_event_type(type_name);
      if (!type) {
        if (!bad) {
          bad = make_error(ErrorCode::store_error,
                           fmt::format("{}: event {} has an unknown type", m_engine->name(), event.seq));
        }
        return;
      }
      event.type = *type;
      event.message_id = row.get<std::string>("message_id");
      event.mailbox = row.get<std::string>("mailbox");
      event.actor = row.get<std::string>("actor");
      page.events.push_back(std::move(event));
    }));
    if (bad) {
      return std::move(*bad);
    }
  }
  // Read after the rows: a prune that ran between the two statements raises oldest_kept, so the
  // caller resets rather than silently missing what was pruned.
  TRY_ASSIGN(db::Statement * pruned, reader->cached(sql.pruned));
  TRY(pruned->bind());
  TRY_ASSIGN(const std::optional<std::int64_t> through, single(*pruned, "through"));
  page.oldest_kept = through.value_or(0) + 1;
  TRY_ASSIGN(db::Statement * last, reader->cached(sql.last));
  TRY(last->bind());
  TRY_ASSIGN(const std::optional<std::int64_t> newest, single(*last, "seq"));
  page.newest = std::max(newest.value_or(0), page.oldest_kept - 1);
  if (!page.events.empty()) {
    page.newest = std::max(page.newest, page.events.back().seq);
  }
  return page;
}

Result<std::int64_t> SqlStore::prune_events(const mail::EventRetention& retention)
{
  const EventQueries& sql = m_sql.events;
  return write([&](db::Connection& c) -> Result<std::int64_t> {
    TRY_ASSIGN(const mail::UnixMillis now, this->now());
    std::optional<std::int64_t> through;
    {
      // Beyond the newest max_rows.
      TRY_ASSIGN(db::Statement * nth, c.cached(sql.nth_newest));
      TRY(nth->bind(std::max<std::int64_t>(retention.max_rows, 0)));
      TRY_ASSIGN(through, single(*nth, "seq"));
    }
    {
      // Older than max_age_ms: everything before the oldest recent event (a prefix by seq, so
      // what is kept is always every event after oldest_kept), or all of them when none is recent.
      TRY_ASSIGN(db::Statement * recent, c.cached(sql.first_recent));
      TRY(recent->bind(now - retention.max_age_ms));
      TRY_ASSIGN(const bool has_row, recent->step());
      std::optional<std::int64_t> aged;
      if (has_row) {
        db::ResetGuard reset(*recent);
        aged = recent->get<std::int64_t>("seq") - 1;
      } else {
        TRY_ASSIGN(db::Statement * last, c.cached(sql.last));
        TRY(last->bind());
        TRY_ASSIGN(aged, single(*last, "seq"));
      }
      if (aged && (!through || *aged > *through)) {
        through = aged;
      }
    }
    if (!through || *through <= 0) {
      return std::int64_t{0};
    }
    TRY_ASSIGN(db::Statement * prune, c.cached(sql.prune));
    TRY(prune->bind(*through));
    TRY_ASSIGN(const std::int64_t deleted, prune->exec());
    TRY_ASSIGN(db::Statement * mark, c.cached(sql.set_pruned));
    TRY(mark->bind(*through));
    TRY(mark->exec());
    return deleted;
  });
}

} // namespace mailroom::providers::sqlstore
