// The PostgreSQL store's SQL for export, import and purge. The same lines as the bead store's:
// messages by time, ties in arrival order (seq); deliveries in stored order (ordinal, SQLite's
// rowid); keys by sender and key. A mailbox's last_seen lives in mailbox_presence here.

#include "postgres/sql.hpp"
#include "postgres/sql_columns.hpp"
#include "sqlstore/dialect_sql.hpp"

namespace mailroom::providers::postgres {

namespace {

constexpr sqlstore::TransferQueries k_transfer = [] {
  sqlstore::TransferQueries q = sqlstore::shared_sql::k_transfer;

  q.mailboxes = R"sql(
SELECT m.name AS name, m.registered_at AS registered_at, m.retired_at AS retired_at, p.last_seen AS last_seen
FROM mailboxes AS m LEFT JOIN mailbox_presence AS p ON p.name = m.name
ORDER BY m.name)sql";

  q.message_seqs = MR_SQL_MESSAGE_SEQS(MR_PG_PARAM);
  q.deliveries = MR_SQL_EXPORT_DELIVERIES(MR_PG_DELIVERY_POSITION);
  q.keys = MR_SQL_EXPORT_KEYS(MR_PG_PARAM);

  // The mailbox, and its presence when the export had one, in one statement.
  q.insert_mailbox = R"sql(
WITH added AS (
  INSERT INTO mailboxes (name, registered_at, retired_at) VALUES (?1, ?2::bigint, ?3::bigint) RETURNING name
)
INSERT INTO mailbox_presence (name, last_seen)
SELECT name, ?4::bigint FROM added WHERE ?4::bigint IS NOT NULL)sql";

  // The copies on a delivery (priority, created_at, sender) come from its message, and so does its
  // expires_at unless the record has its own (?17).
  q.insert_delivery = R"sql(
INSERT INTO deliveries (message, recipient, kind, priority, created_at, delivered_at, sender, expires_at,
                        read_at, archived_at, ack_state, attempts, last_attempt_at, next_attempt_at,
                        acted_by, handler_attempts, retry_at, set_aside_at, request_state, request_state_at)
SELECT b.seq, ?2::text, ?3::text, b.priority, b.created_at, ?4::bigint, b.sender,
       CASE WHEN ?17::integer <> 0 THEN ?18::bigint ELSE b.expires_at END, ?5::bigint,
       ?6::bigint, ?7::text, ?8::integer, ?9::bigint, ?10::bigint, ?11::text, ?12::integer, ?13::bigint,
       ?14::bigint, ?15::text, ?16::bigint
FROM beads AS b WHERE b.seq = ?1::bigint)sql";

  q.purgeable = MR_SQL_PURGEABLE(MR_PG_PARAM);
  return q;
}();

} // namespace

const sqlstore::TransferQueries& postgres_transfer_queries()
{
  return k_transfer;
}

} // namespace mailroom::providers::postgres
