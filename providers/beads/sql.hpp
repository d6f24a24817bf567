#pragma once

// Every SQL statement of the bead store, by name. Parameters are always bound, never formatted in.
// Message columns come in one fixed order (k_message_columns) so one row reader serves every query:
// id, sender, to_list, cc_list, subject, body, created_at, thread_id, reply_to, priority, type,
// then read, archived for the viewing mailbox.
//
// Hot paths (inbox, check, count) name their index with INDEXED BY and join deliveries to beads in
// a fixed order (CROSS JOIN), so a plan change can never turn them into a scan of either table;
// sql_plan_test.cpp checks the plans.

#include <string_view>

namespace mailroom::providers::beads::sql {

// Unread deliveries of ?1 in inbox order, at most ?2 (-1: all).
constexpr std::string_view k_select_unread = R"sql(
SELECT b.id, b.sender, b.to_list, b.cc_list, b.subject, b.body, b.created_at, b.thread_id,
       b.reply_to, b.priority, b.type, 0, 0
FROM deliveries AS d INDEXED BY deliveries_unread
CROSS JOIN beads AS b ON b.seq = d.message
WHERE d.recipient = ?1 AND d.read_at IS NULL AND d.archived_at IS NULL
ORDER BY d.priority, d.created_at, b.id
LIMIT ?2
)sql";

// Unarchived deliveries of ?1, read or not, in inbox order, at most ?2 (-1: all).
constexpr std::string_view k_select_open = R"sql(
SELECT b.id, b.sender, b.to_list, b.cc_list, b.subject, b.body, b.created_at, b.thread_id,
       b.reply_to, b.priority, b.type, d.read_at IS NOT NULL, 0
FROM deliveries AS d INDEXED BY deliveries_open
CROSS JOIN beads AS b ON b.seq = d.message
WHERE d.recipient = ?1 AND d.archived_at IS NULL
ORDER BY d.priority, d.created_at, b.id
LIMIT ?2
)sql";

// Totals of ?1: unarchived, and unarchived unread. Index-only.
constexpr std::string_view k_count = R"sql(
SELECT
  (SELECT count(*) FROM deliveries INDEXED BY deliveries_open
   WHERE recipient = ?1 AND archived_at IS NULL),
  (SELECT count(*) FROM deliveries INDEXED BY deliveries_unread
   WHERE recipient = ?1 AND read_at IS NULL AND archived_at IS NULL)
)sql";

// The unread total of ?1 alone: check with limit 0 loads no message.
constexpr std::string_view k_count_unread = R"sql(
SELECT count(*) FROM deliveries INDEXED BY deliveries_unread
WHERE recipient = ?1 AND read_at IS NULL AND archived_at IS NULL
)sql";

// check: the unread total of ?1 in column 0 of every row, then the first ?2 unread messages in
// inbox order (one row with NULL message columns when there are none), from one snapshot.
constexpr std::string_view k_check = R"sql(
SELECT u.n, m.id, m.sender, m.to_list, m.cc_list, m.subject, m.body, m.created_at, m.thread_id,
       m.reply_to, m.priority, m.type, 0, 0
FROM (SELECT count(*) AS n FROM deliveries INDEXED BY deliveries_unread
      WHERE recipient = ?1 AND read_at IS NULL AND archived_at IS NULL) AS u
LEFT JOIN (
  SELECT b.id, b.sender, b.to_list, b.cc_list, b.subject, b.body, b.created_at, b.thread_id,
         b.reply_to, b.priority, b.type, d.created_at AS order_time
  FROM deliveries AS d INDEXED BY deliveries_unread
  CROSS JOIN beads AS b ON b.seq = d.message
  WHERE d.recipient = ?1 AND d.read_at IS NULL AND d.archived_at IS NULL
  ORDER BY d.priority, d.created_at, b.id
  LIMIT ?2
) AS m ON 1
ORDER BY m.priority, m.order_time, m.id
)sql";

// Message ?1 as mailbox ?2 sees it; column 13 says whether ?2 is a recipient.
constexpr std::string_view k_select_message = R"sql(
SELECT b.id, b.sender, b.to_list, b.cc_list, b.subject, b.body, b.created_at, b.thread_id,
       b.reply_to, b.priority, b.type, d.read_at IS NOT NULL, d.archived_at IS NOT NULL,
       d.recipient IS NOT NULL, b.seq
FROM beads AS b
LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?2
WHERE b.id = ?1
)sql";

// Whether message ?1 exists (column 0) and mailbox ?2 has a delivery of it (column 1).
constexpr std::string_view k_select_delivery_of = R"sql(
SELECT b.seq, d.recipient IS NOT NULL
FROM beads AS b
LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?2
WHERE b.id = ?1
)sql";

// State changes for mailbox ?2 on message ?1 (at time ?3 when they set one); each changes at
// most one row, and nothing when the state is already the wanted one.
constexpr std::string_view k_mark_read = R"sql(
UPDATE deliveries SET read_at = ?3
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND read_at IS NULL
)sql";
constexpr std::string_view k_mark_unread = R"sql(
UPDATE deliveries SET read_at = NULL
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND read_at IS NOT NULL
)sql";
constexpr std::string_view k_archive = R"sql(
UPDATE deliveries SET archived_at = ?3
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND archived_at IS NULL
)sql";
constexpr std::string_view k_unarchive = R"sql(
UPDATE deliveries SET archived_at = NULL
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2
  AND archived_at IS NOT NULL
)sql";

// The ids of the unread deliveries of ?1 in inbox order (mark_all_read's report).
constexpr std::string_view k_select_unread_ids = R"sql(
SELECT b.id
FROM deliveries AS d INDEXED BY deliveries_unread
CROSS JOIN beads AS b ON b.seq = d.message
WHERE d.recipient = ?1 AND d.read_at IS NULL AND d.archived_at IS NULL
ORDER BY d.priority, d.created_at, b.id
)sql";

// mark_all_read: every unread, unarchived delivery of ?1 read at ?2.
constexpr std::string_view k_mark_all_read = R"sql(
UPDATE deliveries SET read_at = ?2
WHERE recipient = ?1 AND read_at IS NULL AND archived_at IS NULL
)sql";

// The thread that ?1 names: the thread of message ?1, or ?1 itself when it is a known thread.
constexpr std::string_view k_resolve_thread = R"sql(
SELECT thread_id FROM beads WHERE id = ?1
UNION ALL
SELECT thread_id FROM (SELECT thread_id FROM beads WHERE thread_id = ?1 LIMIT 1)
)sql";

// Messages of thread ?1 that mailbox ?2 sent or received, oldest first.
constexpr std::string_view k_select_thread = R"sql(
SELECT b.id, b.sender, b.to_list, b.cc_list, b.subject, b.body, b.created_at, b.thread_id,
       b.reply_to, b.priority, b.type, d.read_at IS NOT NULL, d.archived_at IS NOT NULL,
       d.recipient IS NOT NULL
FROM beads AS b
LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?2
WHERE b.thread_id = ?1 AND (b.sender = ?2 OR d.recipient IS NOT NULL)
ORDER BY b.created_at, b.seq
)sql";

// Delivery records of message seq ?1 in the order they were stored (to, then cc).
constexpr std::string_view k_select_status = R"sql(
SELECT recipient, kind, delivered_at, read_at, archived_at
FROM deliveries WHERE message = ?1 ORDER BY rowid
)sql";

// Sending.
constexpr std::string_view k_select_idempotency = R"sql(
SELECT k.fingerprint, b.id
FROM idempotency_keys AS k JOIN beads AS b ON b.seq = k.message
WHERE k.sender = ?1 AND k.key = ?2
)sql";
constexpr std::string_view k_insert_idempotency = R"sql(
INSERT INTO idempotency_keys (sender, key, fingerprint, message, created_at)
VALUES (?1, ?2, ?3, ?4, ?5)
)sql";
constexpr std::string_view k_id_exists = "SELECT 1 FROM beads WHERE id = ?1";
constexpr std::string_view k_insert_bead = R"sql(
INSERT INTO beads (id, sender, to_list, cc_list, subject, body, created_at, thread_id, reply_to,
                   priority, type, sender_uid, sender_host)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
)sql";
constexpr std::string_view k_insert_delivery = R"sql(
INSERT INTO deliveries (message, recipient, kind, priority, created_at, delivered_at)
VALUES (?1, ?2, ?3, ?4, ?5, ?5)
)sql";

// Registry.
constexpr std::string_view k_select_mailbox =
    "SELECT retired_at IS NOT NULL FROM mailboxes WHERE name = ?1";
constexpr std::string_view k_insert_mailbox = R"sql(
INSERT INTO mailboxes (name, registered_at) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING
)sql";
constexpr std::string_view k_reactivate_mailbox =
    "UPDATE mailboxes SET retired_at = NULL WHERE name = ?1 AND retired_at IS NOT NULL";
constexpr std::string_view k_retire_mailbox =
    "UPDATE mailboxes SET retired_at = ?2 WHERE name = ?1 AND retired_at IS NULL";
// The sender of a message: registered when missing, last seen now.
constexpr std::string_view k_register_sender = R"sql(
INSERT INTO mailboxes (name, registered_at, last_seen) VALUES (?1, ?2, ?2)
ON CONFLICT (name) DO UPDATE SET last_seen = max(coalesce(last_seen, 0), excluded.last_seen)
)sql";
constexpr std::string_view k_touch_mailbox = R"sql(
UPDATE mailboxes SET last_seen = ?2 WHERE name = ?1 AND (last_seen IS NULL OR last_seen < ?2)
)sql";
constexpr std::string_view k_select_active_names =
    "SELECT name FROM mailboxes WHERE retired_at IS NULL ORDER BY name";
constexpr std::string_view k_select_agents = R"sql(
SELECT m.name, m.registered_at, m.last_seen,
       (SELECT count(*) FROM deliveries AS d INDEXED BY deliveries_unread
        WHERE d.recipient = m.name AND d.read_at IS NULL AND d.archived_at IS NULL)
FROM mailboxes AS m WHERE m.retired_at IS NULL ORDER BY m.name
)sql";

} // namespace mailroom::providers::beads::sql
