// The bead store's SQL for export, import and purge (SQLite). Export reads messages by time, ties
// in arrival order (seq), so an import into an empty store gets the same order and the same lists;
// deliveries as stored; keys by sender and key: export -> import -> export gives the same lines.

#include "beads/sql.hpp"

namespace mailroom::providers::beads {

namespace {

#define MR_DELIVERY_COLUMNS                                                                        \
  "recipient, kind, delivered_at, read_at, archived_at, ack_state, acked_at, attempts, "          \
  "last_attempt_at, acted_by, next_attempt_at, handler_attempts, retry_at, set_aside_at "

#define MR_KEY_COLUMNS                                                                             \
  "k.sender AS sender, k.key AS key, k.fingerprint AS fingerprint, b.id AS message, "             \
  "k.created_at AS created_at "

// The visibility rows (visibility.hpp) of message ?1: its word, for its sender and recipients.
#define MR_AUDIENCE_OF_SEQ_TERMS                                                                   \
  "word = ?1 >> 6 AND who IN (SELECT sender FROM beads WHERE seq = ?1 "                            \
  "UNION SELECT recipient FROM deliveries WHERE message = ?1)"
#define MR_AUDIENCE_OF_SEQ "WHERE " MR_AUDIENCE_OF_SEQ_TERMS

constexpr sqlstore::TransferQueries k_transfer = {
    .mailboxes = "SELECT name, registered_at, retired_at, last_seen FROM mailboxes ORDER BY name",

    .message_seqs = "SELECT seq FROM beads WHERE ?1 IS NULL OR created_at >= ?1 ORDER BY created_at, seq",

    .deliveries = "SELECT " MR_DELIVERY_COLUMNS "FROM deliveries WHERE message = ?1 ORDER BY rowid",

    .keys = "SELECT " MR_KEY_COLUMNS
            "FROM idempotency_keys AS k LEFT JOIN beads AS b ON b.seq = k.message "
            "WHERE ?1 IS NULL OR k.created_at >= ?1 ORDER BY k.sender, k.key",

    .mailbox_exists = "SELECT 1 FROM mailboxes WHERE name = ?1",

    .insert_mailbox = "INSERT INTO mailboxes (name, registered_at, retired_at, last_seen) VALUES (?1, ?2, ?3, ?4)",

    .message_seq = "SELECT seq FROM beads WHERE id = ?1",

    .delivery = "SELECT " MR_DELIVERY_COLUMNS "FROM deliveries WHERE message = ?1 AND recipient = ?2",

    // The copies on a delivery (priority, created_at, sender, expires_at) come from its message.
    .insert_delivery = R"sql(
INSERT INTO deliveries (message, recipient, kind, priority, created_at, delivered_at, sender, expires_at,
                        read_at, archived_at, ack_state, attempts, last_attempt_at, next_attempt_at,
                        acted_by, handler_attempts, retry_at, set_aside_at)
SELECT b.seq, ?2, ?3, b.priority, b.created_at, ?4, b.sender, b.expires_at, ?5, ?6, ?7, ?8, ?9, ?10,
       ?11, ?12, ?13, ?14
FROM beads AS b WHERE b.seq = ?1)sql",

    .set_acked_at = "UPDATE deliveries SET acked_at = ?3 WHERE message = ?1 AND recipient = ?2",

    .key = "SELECT " MR_KEY_COLUMNS
           "FROM idempotency_keys AS k LEFT JOIN beads AS b ON b.seq = k.message "
           "WHERE k.sender = ?1 AND k.key = ?2",

    .insert_key = R"sql(
INSERT INTO idempotency_keys (sender, key, fingerprint, message, created_at) VALUES (?1, ?2, ?3, ?4, ?5))sql",

    // A message with no delivery at all is never "all archived".
    .purgeable = R"sql(
SELECT b.seq AS seq, (SELECT count(*) FROM deliveries AS c WHERE c.message = b.seq) AS deliveries
FROM beads AS b
WHERE (b.expires_at IS NOT NULL AND b.expires_at <= ?1)
   OR (EXISTS (SELECT 1 FROM deliveries AS a WHERE a.message = b.seq)
       AND NOT EXISTS (SELECT 1 FROM deliveries AS o
                       WHERE o.message = b.seq AND (o.archived_at IS NULL OR o.archived_at > ?1)))
ORDER BY b.seq)sql",

    .release_keys = "UPDATE idempotency_keys SET message = NULL WHERE message = ?1",

    .delete_deliveries = "DELETE FROM deliveries WHERE message = ?1",

    .delete_message = "DELETE FROM beads WHERE seq = ?1",

    .clear_visible = "UPDATE visibility SET bits = bits & ~(1 << (?1 & 63)) " MR_AUDIENCE_OF_SEQ,
    .drop_invisible = "DELETE FROM visibility WHERE bits = 0 AND " MR_AUDIENCE_OF_SEQ_TERMS,
};

#undef MR_AUDIENCE_OF_SEQ
#undef MR_AUDIENCE_OF_SEQ_TERMS
#undef MR_KEY_COLUMNS
#undef MR_DELIVERY_COLUMNS

} // namespace

const sqlstore::TransferQueries& sqlite_transfer_queries()
{
  return k_transfer;
}

} // namespace mailroom::providers::beads
