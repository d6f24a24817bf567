// The PostgreSQL store's SQL. Parameters are always bound, never formatted in. Hot paths (inbox,
// check, count) are index-only scans of the caller's partial, covering indexes (sql_plan_test.cpp
// pins their plans); counts are aggregates over those indexes, not trigger-kept counters, so that
// concurrent sends to one mailbox share no row (schema.cpp says why).

#include "postgres/sql.hpp"

#include "mail/limits.hpp"
#include "postgres/sql_columns.hpp"
#include "sqlstore/dialect_sql.hpp"
#include "sqlstore/schedule_sql.hpp"
#include "sqlstore/sql_rules.hpp"
#include "sqlstore/wake_sql.hpp"

namespace mailroom::providers::postgres {

static_assert(std::string_view(MR_PG_PREVIEW_BYTES) == "4096" && mail::k_preview_bytes == 4096,
              "MR_PG_PREVIEW_BYTES must spell mail::k_preview_bytes");

namespace {

// Taken by a writer before its first event (sqlstore::EventQueries::lock) and held to COMMIT, so
// that event seqs are allocated in commit order: a seq a reader sees was committed after every
// smaller one had committed or rolled back. The key is "mrevents" in ASCII, as a bigint.
constexpr std::string_view k_event_lock = "SELECT pg_advisory_xact_lock(7886477456661443699)";

// The thread (or trace: `key` is its column) that ?1 names: the one of message ?1, else ?1 itself
// when a message has that thread. UNION ALL keeps no order here, so the first is chosen by rank.
#define MR_PG_RESOLVE(key)                                                                                   \
  "\nSELECT " key " FROM (\n  (SELECT " key                                                                  \
  ", 0 AS rank FROM beads WHERE id = ?1)\n  UNION ALL\n  (SELECT " key ", 1 AS rank FROM beads WHERE " key   \
  " = ?1 LIMIT 1)\n) AS found ORDER BY rank LIMIT 1"

constexpr sqlstore::CoreQueries k_core = [] {
  sqlstore::CoreQueries q = sqlstore::shared_sql::k_core;

  q.select_message = MR_SQL_MESSAGES_WHERE(MR_PG_MESSAGE_COLUMNS, "id");

  q.select_unread = "SELECT " MR_PG_MESSAGE_COLUMNS R"sql(
FROM deliveries AS d JOIN beads AS b ON b.seq = d.message
WHERE d.recipient = ?1 AND )sql" MR_PG_UNREAD("d", "?2") "\n" MR_SQL_INBOX_ORDER "\n" MR_PG_LIMIT("?4");

  q.select_open = "SELECT " MR_PG_MESSAGE_COLUMNS R"sql(
FROM deliveries AS d JOIN beads AS b ON b.seq = d.message
WHERE d.recipient = ?1 AND d.archived_at IS NULL AND )sql" MR_PG_UNUSED(
      "?2", "bigint") "\n" MR_SQL_INBOX_ORDER "\n" MR_PG_LIMIT("?4");

  q.count = R"sql(
SELECT count(*) AS total,
       count(*) FILTER (WHERE )sql" MR_SQL_UNREAD("", "?2::bigint") R"sql() AS unread
FROM deliveries WHERE recipient = ?1 AND archived_at IS NULL)sql";

  q.count_unread =
      "SELECT count(*) AS unread FROM deliveries AS d WHERE d.recipient = ?1 AND " MR_PG_UNREAD("d", "?2");

  // The hook's candidates and the classes' counts, as the bead store's.
  q.select_awaiting = "SELECT " MR_PG_MESSAGE_COLUMNS R"sql(
FROM deliveries AS d JOIN beads AS b ON b.seq = d.message
WHERE d.recipient = ?1 AND d.priority <> 0 AND )sql" MR_PG_UNREAD("d", "?2") R"sql(
  AND )sql" MR_SQL_OWED_STATES("d.") " AND " MR_SQL_OWED("d.", "?2::bigint") R"sql(
ORDER BY d.created_at, d.message
)sql" MR_PG_LIMIT("?4");

  q.count_classes = R"sql(
SELECT (SELECT count(*) FROM deliveries AS d
        WHERE d.recipient = ?1 AND d.priority = 0 AND )sql" MR_PG_UNREAD("d", "?2") R"sql() AS urgent,
       count(*) AS owed, count(*) FILTER (WHERE d.priority = 0) AS owed_urgent
FROM deliveries AS d
WHERE d.recipient = ?1 AND )sql" MR_PG_UNREAD("d", "?2") R"sql(
  AND )sql" MR_SQL_OWED_STATES("d.") " AND " MR_SQL_OWED("d.", "?2::bigint");

  q.live_copy = MR_SQL_LIVE_COPY("?4::bigint");
  // The two-key form, apart from the one-key locks of events and schema changes.
  q.lock_stream = "SELECT pg_advisory_xact_lock(hashtext(?1), hashtext(?2))";

  q.resolve_thread = MR_PG_RESOLVE("thread_id");
  q.select_thread = MR_SQL_CONVERSATION(MR_PG_MESSAGE_COLUMNS, "thread_id");

  q.select_unread_ids = R"sql(
SELECT b.id AS id
FROM deliveries AS d JOIN beads AS b ON b.seq = d.message
WHERE d.recipient = ?1 AND )sql" MR_PG_UNREAD("d", "?2") "\n" MR_SQL_INBOX_ORDER;

  q.mark_unread = R"sql(
UPDATE deliveries SET read_at = NULL, set_aside_at = NULL, handler_attempts = 0, retry_at = NULL,
                      acted_by = ?4, )sql" MR_SQL_REQUEST_UNSET_ASIDE("?3::bigint") R"sql(
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND )sql" MR_PG_UNUSED(
      "?3", "bigint") R"sql(
  AND (read_at IS NOT NULL OR set_aside_at IS NOT NULL))sql";

  q.unarchive = R"sql(
UPDATE deliveries SET archived_at = NULL, acted_by = ?4
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND )sql" MR_PG_UNUSED(
      "?3", "bigint") R"sql(
  AND archived_at IS NOT NULL)sql";

  q.take_hold = MR_SQL_TAKE_HOLD(MR_PG_PARAM);
  q.take_mark = MR_SQL_TAKE_MARK(MR_PG_PARAM);

  q.mark_all_read = "UPDATE deliveries AS d SET read_at = ?2, " MR_SQL_REQUEST_READ(
      "?2::bigint") " WHERE d.recipient = ?1 AND " MR_PG_UNREAD("d", "?2");

  q.select_mailbox = R"sql(
SELECT m.retired_at IS NOT NULL AS retired, p.last_seen AS last_seen
FROM mailboxes AS m LEFT JOIN mailbox_presence AS p ON p.name = m.name
WHERE m.name = ?1)sql";

  // Presence of registered mailboxes only, as the bead store's UPDATE of mailboxes.last_seen.
  q.touch_mailbox = R"sql(
INSERT INTO mailbox_presence AS p (name, last_seen, seen_via)
SELECT m.name, ?2::bigint, ?4::text FROM mailboxes AS m WHERE m.name = ?1
ON CONFLICT (name) DO UPDATE SET last_seen = excluded.last_seen, seen_via = excluded.seen_via
WHERE p.last_seen <= excluded.last_seen - ?3::bigint)sql";

  // mailbox_presence holds any name; only the sqlstore decides which unregistered names act.
  q.touch_unregistered = R"sql(
INSERT INTO mailbox_presence AS p (name, last_seen, seen_via) VALUES (?1::text, ?2::bigint, ?4::text)
ON CONFLICT (name) DO UPDATE SET last_seen = excluded.last_seen, seen_via = excluded.seen_via
WHERE p.last_seen <= excluded.last_seen - ?3::bigint)sql";

  // One pass over the unread deliveries of every mailbox (deliveries_unread, index-only), not a
  // count per mailbox: a per-mailbox plan is chosen without knowing the mailbox, badly when one
  // mailbox holds most of the mail.
  q.select_agents = R"sql(
SELECT m.name AS name, m.registered_at AS registered_at, p.last_seen AS last_seen,
       coalesce(u.unread, 0) AS unread
FROM mailboxes AS m
LEFT JOIN mailbox_presence AS p ON p.name = m.name
LEFT JOIN (
  SELECT d.recipient, count(*) AS unread FROM deliveries AS d
  WHERE )sql" MR_PG_UNREAD("d", "?1") R"sql(
  GROUP BY d.recipient
) AS u ON u.recipient = m.name
WHERE m.retired_at IS NULL ORDER BY m.name)sql";
  return q;
}();

constexpr sqlstore::ViewQueries k_views = [] {
  sqlstore::ViewQueries q = sqlstore::shared_sql::k_views;

  q.select_status = MR_SQL_SELECT_STATUS(MR_PG_DELIVERY_POSITION);
  q.resolve_trace = MR_PG_RESOLVE("trace_id");
  q.select_trace = MR_SQL_CONVERSATION(MR_PG_MESSAGE_COLUMNS, "trace_id");
  q.trace_deliveries = MR_SQL_TRACE_DELIVERIES(MR_PG_DELIVERY_POSITION);
  q.open_deliveries = MR_SQL_OPEN_DELIVERIES(MR_PG_MESSAGE_COLUMNS, MR_PG_PARAM);
  return q;
}();

constexpr sqlstore::RequestQueries k_requests = {MR_SQL_REQUESTS(MR_PG_PARAM)};

#undef MR_PG_RESOLVE

} // namespace

const sqlstore::Queries& postgres_queries()
{
  // Built once from the constant parts (sql.cpp and the sql_*.cpp files); never changes.
  static const sqlstore::Queries k_queries = {
      k_core,
      k_views,
      postgres_claim_queries(),
      postgres_health_queries(),
      postgres_list_queries(),
      postgres_transfer_queries(),
      sqlstore::shared_sql::event_queries(k_event_lock),
      k_requests,
      MR_SQL_SCHEDULE_QUERIES(MR_PG_PARAM, "FOR UPDATE OF s", MR_PG_DELIVERY_POSITION),
      MR_SQL_WAKE_QUERIES(MR_PG_PARAM)};
  return k_queries;
}

} // namespace mailroom::providers::postgres
