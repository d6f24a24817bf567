// The bead store's SQL for export, import and purge (SQLite). Export reads messages by time, ties
// in arrival order (seq), so an import into an empty store gets the same order and the same lists;
// deliveries as stored; keys by sender and key: export -> import -> export gives the same lines.

#include "beads/sql.hpp"
#include "beads/sql_columns.hpp"
#include "sqlstore/dialect_sql.hpp"

namespace mailroom::providers::beads {

namespace {

constexpr sqlstore::TransferQueries k_transfer = [] {
  sqlstore::TransferQueries q = sqlstore::shared_sql::k_transfer;

  q.mailboxes = "SELECT name, registered_at, retired_at, last_seen FROM mailboxes ORDER BY name";

  q.message_seqs = MR_SQL_MESSAGE_SEQS(MR_PARAM);
  q.deliveries = MR_SQL_EXPORT_DELIVERIES(MR_DELIVERY_POSITION);
  q.keys = MR_SQL_EXPORT_KEYS(MR_PARAM);

  q.insert_mailbox =
      "INSERT INTO mailboxes (name, registered_at, retired_at, last_seen) VALUES (?1, ?2, ?3, ?4)";

  // The copies on a delivery (priority, created_at, sender) come from its message, and so does its
  // expires_at unless the record has its own (?17).
  q.insert_delivery = R"sql(
INSERT INTO deliveries (message, recipient, kind, priority, created_at, delivered_at, sender, expires_at,
                        read_at, archived_at, ack_state, attempts, last_attempt_at, next_attempt_at,
                        acted_by, handler_attempts, retry_at, set_aside_at, request_state, request_state_at)
SELECT b.seq, ?2, ?3, b.priority, b.created_at, ?4, b.sender, CASE WHEN ?17 THEN ?18 ELSE b.expires_at END,
       ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16
FROM beads AS b WHERE b.seq = ?1)sql";

  q.purgeable = MR_SQL_PURGEABLE(MR_PARAM);
  return q;
}();

} // namespace

const sqlstore::TransferQueries& sqlite_transfer_queries()
{
  return k_transfer;
}

} // namespace mailroom::providers::beads
