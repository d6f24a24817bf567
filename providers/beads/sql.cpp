// The bead store's SQL (SQLite). Parameters are always bound, never formatted in. Hot paths
// (inbox, check, count) are index-only or read the trigger-kept counters; sql_plan_test.cpp pins
// their plans.

#include "beads/sql.hpp"

#include "beads/sql_columns.hpp"
#include "mail/limits.hpp"
#include "sqlstore/dialect_sql.hpp"
#include "sqlstore/schedule_sql.hpp"
#include "sqlstore/sql_rules.hpp"
#include "sqlstore/wake_sql.hpp"

namespace mailroom::providers::beads {

static_assert(std::string_view(MR_PREVIEW_BYTES) == "4096" && mail::k_preview_bytes == 4096,
              "MR_PREVIEW_BYTES must spell mail::k_preview_bytes");

namespace {

// The thread (or trace: `key` is its column) that ?1 names: the one of message ?1, else ?1 itself
// when a message has that thread; the store reads the first row.
#define MR_RESOLVE(key)                                                                                      \
  "\nSELECT " key " FROM beads WHERE id = ?1\nUNION ALL\nSELECT " key " FROM (SELECT " key                   \
  " FROM beads WHERE " key " = ?1 LIMIT 1)"

constexpr sqlstore::CoreQueries k_core = [] {
  sqlstore::CoreQueries q = sqlstore::shared_sql::k_core;

  q.select_message = MR_SQL_MESSAGES_WHERE(MR_MESSAGE_COLUMNS, "id");

  q.select_unread = "SELECT " MR_MESSAGE_COLUMNS R"sql(
FROM deliveries AS d INDEXED BY deliveries_unread CROSS JOIN beads AS b ON b.seq = d.message
WHERE d.recipient = ?1 AND )sql" MR_SQL_UNREAD("d.", "?2") "\n" MR_SQL_INBOX_ORDER "LIMIT ?4";

  q.select_open = "SELECT " MR_MESSAGE_COLUMNS R"sql(
FROM deliveries AS d INDEXED BY deliveries_open CROSS JOIN beads AS b ON b.seq = d.message
WHERE d.recipient = ?1 AND d.archived_at IS NULL
)sql" MR_SQL_INBOX_ORDER "LIMIT ?4";

  // The counters, less the unread deliveries that have expired (few, and index-served).
  q.count = R"sql(
SELECT coalesce(c.total, 0) AS total, coalesce(c.unread, 0) - (
  SELECT count(*) FROM deliveries INDEXED BY deliveries_expiring
  WHERE recipient = ?1 AND )sql" MR_SQL_UNREAD_BUT_EXPIRED("", "?2") R"sql() AS unread
FROM (SELECT 1) LEFT JOIN mailbox_counts AS c ON c.recipient = ?1)sql";

  q.count_unread = R"sql(
SELECT coalesce(c.unread, 0) - (
  SELECT count(*) FROM deliveries INDEXED BY deliveries_expiring
  WHERE recipient = ?1 AND )sql" MR_SQL_UNREAD_BUT_EXPIRED("", "?2") R"sql() AS unread
FROM (SELECT 1) LEFT JOIN mailbox_counts AS c ON c.recipient = ?1)sql";

  // The hook's candidates (mail/hook_order.hpp; lists.cpp check): what the mailbox owes, from the
  // index of owed unread deliveries, and the classes' counts. Urgent mail is the head of inbox order.
  q.select_awaiting = "SELECT " MR_MESSAGE_COLUMNS R"sql(
FROM deliveries AS d INDEXED BY deliveries_owed_unread CROSS JOIN beads AS b ON b.seq = d.message
WHERE d.recipient = ?1 AND d.priority <> 0 AND )sql" MR_SQL_UNREAD("d.", "?2") R"sql(
  AND )sql" MR_SQL_OWED_STATES("d.") " AND " MR_SQL_OWED("d.", "?2") R"sql(
ORDER BY d.created_at, d.message
LIMIT ?4)sql";

  q.count_classes = R"sql(
SELECT (SELECT count(*) FROM deliveries INDEXED BY deliveries_unread
        WHERE recipient = ?1 AND priority = 0 AND )sql" MR_SQL_UNREAD("", "?2") R"sql() AS urgent,
       (SELECT count(*) FROM deliveries INDEXED BY deliveries_owed_unread
        WHERE recipient = ?1 AND )sql" MR_SQL_UNREAD("", "?2") R"sql(
          AND )sql" MR_SQL_OWED_STATES("") " AND " MR_SQL_OWED("", "?2") R"sql() AS owed,
       (SELECT count(*) FROM deliveries INDEXED BY deliveries_owed_unread
        WHERE recipient = ?1 AND priority = 0 AND )sql" MR_SQL_UNREAD("", "?2") R"sql(
          AND )sql" MR_SQL_OWED_STATES("") " AND " MR_SQL_OWED("", "?2") R"sql() AS owed_urgent)sql";

  q.live_copy = MR_SQL_LIVE_COPY("?4");

  q.resolve_thread = MR_RESOLVE("thread_id");
  q.select_thread = MR_SQL_CONVERSATION(MR_MESSAGE_COLUMNS, "thread_id");

  q.select_unread_ids = R"sql(
SELECT b.id AS id
FROM deliveries AS d INDEXED BY deliveries_unread CROSS JOIN beads AS b ON b.seq = d.message
WHERE d.recipient = ?1 AND )sql" MR_SQL_UNREAD("d.", "?2") "\n" MR_SQL_INBOX_ORDER;

  q.mark_unread = R"sql(
UPDATE deliveries SET read_at = NULL, set_aside_at = NULL, handler_attempts = 0, retry_at = NULL,
                      acted_by = ?4, )sql" MR_SQL_REQUEST_UNSET_ASIDE("?3") R"sql(
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2
  AND (read_at IS NOT NULL OR set_aside_at IS NOT NULL))sql";

  q.unarchive = R"sql(
UPDATE deliveries SET archived_at = NULL, acted_by = ?4
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND archived_at IS NOT NULL)sql";

  q.take_hold = MR_SQL_TAKE_HOLD(MR_PARAM);
  q.take_mark = MR_SQL_TAKE_MARK(MR_PARAM);

  q.mark_all_read = "\nUPDATE deliveries SET read_at = ?2, " MR_SQL_REQUEST_READ("?2") R"sql(
WHERE recipient = ?1 AND )sql" MR_SQL_UNREAD("", "?2");

  q.select_mailbox = "SELECT retired_at IS NOT NULL AS retired, last_seen FROM mailboxes WHERE name = ?1";

  q.touch_mailbox = R"sql(
UPDATE mailboxes SET last_seen = ?2, seen_via = ?4
WHERE name = ?1 AND (last_seen IS NULL OR last_seen <= ?2 - ?3))sql";

  q.touch_unregistered = R"sql(
INSERT INTO unregistered_presence AS p (name, last_seen, seen_via) VALUES (?1, ?2, ?4)
ON CONFLICT (name) DO UPDATE SET last_seen = excluded.last_seen, seen_via = excluded.seen_via
WHERE p.last_seen <= excluded.last_seen - ?3)sql";

  q.select_agents = R"sql(
SELECT m.name AS name, m.registered_at AS registered_at, m.last_seen AS last_seen,
       coalesce(c.unread, 0) - (
         SELECT count(*) FROM deliveries AS e INDEXED BY deliveries_expiring
         WHERE e.recipient = m.name AND )sql" MR_SQL_UNREAD_BUT_EXPIRED("e.", "?1") R"sql() AS unread
FROM mailboxes AS m LEFT JOIN mailbox_counts AS c ON c.recipient = m.name
WHERE m.retired_at IS NULL ORDER BY m.name)sql";
  return q;
}();

constexpr sqlstore::ViewQueries k_views = [] {
  sqlstore::ViewQueries q = sqlstore::shared_sql::k_views;

  q.select_status = MR_SQL_SELECT_STATUS(MR_DELIVERY_POSITION);
  q.resolve_trace = MR_RESOLVE("trace_id");
  q.select_trace = MR_SQL_CONVERSATION(MR_MESSAGE_COLUMNS, "trace_id");
  q.trace_deliveries = MR_SQL_TRACE_DELIVERIES(MR_DELIVERY_POSITION);
  q.open_deliveries = MR_SQL_OPEN_DELIVERIES(MR_MESSAGE_COLUMNS, MR_PARAM);
  return q;
}();

constexpr sqlstore::RequestQueries k_requests = {MR_SQL_REQUESTS(MR_PARAM)};

#undef MR_RESOLVE

} // namespace

const sqlstore::Queries& sqlite_queries()
{
  // Built once from the constant parts (sql.cpp and the sql_*.cpp files); never changes.
  static const sqlstore::Queries k_queries = {k_core,
                                              k_views,
                                              sqlite_claim_queries(),
                                              sqlite_health_queries(),
                                              sqlite_list_queries(),
                                              sqlite_transfer_queries(),
                                              sqlstore::shared_sql::event_queries(""),
                                              k_requests,
                                              MR_SQL_SCHEDULE_QUERIES(MR_PARAM, "", MR_DELIVERY_POSITION),
                                              MR_SQL_WAKE_QUERIES(MR_PARAM)};
  return k_queries;
}

} // namespace mailroom::providers::beads
