-- The bead store's SQL (SQLite), every statement as it runs.
-- Written by a unit test; regenerate with `make golden-sql` (docs/store.md, "Reading the SQL").

-- core.select_message
SELECT b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, b.addressed_to AS addressed_to, b.subject AS subject, CASE WHEN ?3 <= 4096 THEN substr(b.preview, 1, ?3) ELSE substr(b.body, 1, ?3) END AS body, b.body_bytes AS body_length, b.created_at AS created_at, b.thread_id AS thread_id, b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, b.dedup_key AS dedup_key, b.sender_uid AS sender_uid, b.sender_host AS sender_host, d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, d.last_attempt_at AS last_attempt_at, d.request_state AS request_state, d.expires_at AS delivery_expires_at, (SELECT sm.schedule FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS schedule, (SELECT sm.slot FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS slot 
FROM beads AS b LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?2
WHERE b.id = ?1;

-- core.select_unread
SELECT b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, b.addressed_to AS addressed_to, b.subject AS subject, CASE WHEN ?3 <= 4096 THEN substr(b.preview, 1, ?3) ELSE substr(b.body, 1, ?3) END AS body, b.body_bytes AS body_length, b.created_at AS created_at, b.thread_id AS thread_id, b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, b.dedup_key AS dedup_key, b.sender_uid AS sender_uid, b.sender_host AS sender_host, d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, d.last_attempt_at AS last_attempt_at, d.request_state AS request_state, d.expires_at AS delivery_expires_at, (SELECT sm.schedule FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS schedule, (SELECT sm.slot FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS slot 
FROM deliveries AS d INDEXED BY deliveries_unread CROSS JOIN beads AS b ON b.seq = d.message
WHERE d.recipient = ?1 AND d.read_at IS NULL AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?2)
ORDER BY d.priority, d.created_at, d.message LIMIT ?4;

-- core.select_open
SELECT b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, b.addressed_to AS addressed_to, b.subject AS subject, CASE WHEN ?3 <= 4096 THEN substr(b.preview, 1, ?3) ELSE substr(b.body, 1, ?3) END AS body, b.body_bytes AS body_length, b.created_at AS created_at, b.thread_id AS thread_id, b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, b.dedup_key AS dedup_key, b.sender_uid AS sender_uid, b.sender_host AS sender_host, d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, d.last_attempt_at AS last_attempt_at, d.request_state AS request_state, d.expires_at AS delivery_expires_at, (SELECT sm.schedule FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS schedule, (SELECT sm.slot FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS slot 
FROM deliveries AS d INDEXED BY deliveries_open CROSS JOIN beads AS b ON b.seq = d.message
WHERE d.recipient = ?1 AND d.archived_at IS NULL
ORDER BY d.priority, d.created_at, d.message LIMIT ?4;

-- core.count
SELECT coalesce(c.total, 0) AS total, coalesce(c.unread, 0) - (
  SELECT count(*) FROM deliveries INDEXED BY deliveries_expiring
  WHERE recipient = ?1 AND read_at IS NULL AND archived_at IS NULL AND expires_at IS NOT NULL AND expires_at <= ?2) AS unread
FROM (SELECT 1) LEFT JOIN mailbox_counts AS c ON c.recipient = ?1;

-- core.count_unread
SELECT coalesce(c.unread, 0) - (
  SELECT count(*) FROM deliveries INDEXED BY deliveries_expiring
  WHERE recipient = ?1 AND read_at IS NULL AND archived_at IS NULL AND expires_at IS NOT NULL AND expires_at <= ?2) AS unread
FROM (SELECT 1) LEFT JOIN mailbox_counts AS c ON c.recipient = ?1;

-- core.select_awaiting
SELECT b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, b.addressed_to AS addressed_to, b.subject AS subject, CASE WHEN ?3 <= 4096 THEN substr(b.preview, 1, ?3) ELSE substr(b.body, 1, ?3) END AS body, b.body_bytes AS body_length, b.created_at AS created_at, b.thread_id AS thread_id, b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, b.dedup_key AS dedup_key, b.sender_uid AS sender_uid, b.sender_host AS sender_host, d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, d.last_attempt_at AS last_attempt_at, d.request_state AS request_state, d.expires_at AS delivery_expires_at, (SELECT sm.schedule FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS schedule, (SELECT sm.slot FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS slot 
FROM deliveries AS d INDEXED BY deliveries_owed_unread CROSS JOIN beads AS b ON b.seq = d.message
WHERE d.recipient = ?1 AND d.priority <> 0 AND d.read_at IS NULL AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?2)
  AND (d.request_state IN ('submitted', 'working') OR (d.request_state IS NULL AND d.ack_state IN ('awaiting_ack', 'escalated'))) AND ((d.request_state IN ('submitted', 'working') AND (d.expires_at IS NULL OR d.expires_at > ?2)) OR (d.request_state IS NULL AND (d.ack_state = 'escalated' OR (d.ack_state = 'awaiting_ack' AND (d.expires_at IS NULL OR d.expires_at > ?2)))))
ORDER BY d.created_at, d.message
LIMIT ?4;

-- core.count_classes
SELECT (SELECT count(*) FROM deliveries INDEXED BY deliveries_unread
        WHERE recipient = ?1 AND priority = 0 AND read_at IS NULL AND archived_at IS NULL AND (expires_at IS NULL OR expires_at > ?2)) AS urgent,
       (SELECT count(*) FROM deliveries INDEXED BY deliveries_owed_unread
        WHERE recipient = ?1 AND read_at IS NULL AND archived_at IS NULL AND (expires_at IS NULL OR expires_at > ?2)
          AND (request_state IN ('submitted', 'working') OR (request_state IS NULL AND ack_state IN ('awaiting_ack', 'escalated'))) AND ((request_state IN ('submitted', 'working') AND (expires_at IS NULL OR expires_at > ?2)) OR (request_state IS NULL AND (ack_state = 'escalated' OR (ack_state = 'awaiting_ack' AND (expires_at IS NULL OR expires_at > ?2)))))) AS owed,
       (SELECT count(*) FROM deliveries INDEXED BY deliveries_owed_unread
        WHERE recipient = ?1 AND priority = 0 AND read_at IS NULL AND archived_at IS NULL AND (expires_at IS NULL OR expires_at > ?2)
          AND (request_state IN ('submitted', 'working') OR (request_state IS NULL AND ack_state IN ('awaiting_ack', 'escalated'))) AND ((request_state IN ('submitted', 'working') AND (expires_at IS NULL OR expires_at > ?2)) OR (request_state IS NULL AND (ack_state = 'escalated' OR (ack_state = 'awaiting_ack' AND (expires_at IS NULL OR expires_at > ?2)))))) AS owed_urgent;

-- core.resolve_thread
SELECT thread_id FROM beads WHERE id = ?1
UNION ALL
SELECT thread_id FROM (SELECT thread_id FROM beads WHERE thread_id = ?1 LIMIT 1);

-- core.select_thread
SELECT b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, b.addressed_to AS addressed_to, b.subject AS subject, CASE WHEN ?3 <= 4096 THEN substr(b.preview, 1, ?3) ELSE substr(b.body, 1, ?3) END AS body, b.body_bytes AS body_length, b.created_at AS created_at, b.thread_id AS thread_id, b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, b.dedup_key AS dedup_key, b.sender_uid AS sender_uid, b.sender_host AS sender_host, d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, d.last_attempt_at AS last_attempt_at, d.request_state AS request_state, d.expires_at AS delivery_expires_at, (SELECT sm.schedule FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS schedule, (SELECT sm.slot FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS slot 
FROM beads AS b LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?2
WHERE b.thread_id = ?1
ORDER BY b.created_at, b.seq;

-- core.select_unread_ids
SELECT b.id AS id
FROM deliveries AS d INDEXED BY deliveries_unread CROSS JOIN beads AS b ON b.seq = d.message
WHERE d.recipient = ?1 AND d.read_at IS NULL AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?2)
ORDER BY d.priority, d.created_at, d.message ;

-- core.select_key
SELECT k.fingerprint AS fingerprint, b.id AS id
FROM idempotency_keys AS k LEFT JOIN beads AS b ON b.seq = k.message
WHERE k.sender = ?1 AND k.key = ?2;

-- core.insert_key
INSERT INTO idempotency_keys (sender, key, fingerprint, message, created_at) VALUES (?1, ?2, ?3, ?4, ?5);

-- core.insert_message
INSERT INTO beads (id, sender, to_list, cc_list, addressed_to, subject, body, created_at, thread_id, reply_to, priority, type, trace_id, span_id, parent_span_id, expires_at, dedup_key, sender_uid, sender_host, body_bytes, preview)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)
RETURNING seq;

-- core.insert_delivery
INSERT INTO deliveries (message, recipient, kind, priority, created_at, delivered_at, sender,
                        expires_at, ack_state, next_attempt_at, request_state)
VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6, ?7, ?8, ?9, ?10);

-- core.id_exists
SELECT 1 FROM beads WHERE id = ?1;

-- core.ack_reply
UPDATE deliveries SET ack_state = 'acked', acked_at = ?6
WHERE recipient = ?1 AND ack_state <> 'acked'
  AND message IN (SELECT seq FROM beads WHERE thread_id = ?2 AND sender = ?3 AND created_at <= ?4)
  AND (ack_state IN ('awaiting_ack', 'escalated') OR message = (SELECT seq FROM beads WHERE id = ?5))
RETURNING (SELECT b.id FROM beads AS b WHERE b.seq = deliveries.message) AS id;

-- core.lock_stream
-- (empty)

-- core.live_copy
SELECT b.id AS id FROM beads AS b JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?3
WHERE b.sender = ?1 AND b.dedup_key = ?2 AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?4)
ORDER BY b.seq DESC LIMIT 1;

-- core.supersede
UPDATE deliveries SET archived_at = ?4, acted_by = ?1
WHERE recipient = ?3 AND read_at IS NULL AND archived_at IS NULL
  AND message IN (SELECT seq FROM beads WHERE sender = ?1 AND dedup_key = ?2)
RETURNING (SELECT b.id FROM beads AS b WHERE b.seq = deliveries.message) AS id;

-- core.mark_read
UPDATE deliveries SET read_at = ?3, acted_by = ?4, request_state_at = CASE WHEN request_state = 'submitted' THEN ?3 ELSE request_state_at END, request_state = CASE WHEN request_state = 'submitted' THEN 'working' ELSE request_state END
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND read_at IS NULL;

-- core.mark_unread
UPDATE deliveries SET read_at = NULL, set_aside_at = NULL, handler_attempts = 0, retry_at = NULL,
                      acted_by = ?4, request_state_at = CASE WHEN set_aside_at IS NOT NULL AND request_state = 'failed' THEN ?3 ELSE request_state_at END, request_state = CASE WHEN set_aside_at IS NOT NULL AND request_state = 'failed' THEN 'submitted' ELSE request_state END
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2
  AND (read_at IS NOT NULL OR set_aside_at IS NOT NULL);

-- core.archive
UPDATE deliveries SET archived_at = ?3, acted_by = ?4
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND archived_at IS NULL;

-- core.unarchive
UPDATE deliveries SET archived_at = NULL, acted_by = ?4
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND archived_at IS NOT NULL;

-- core.ack
UPDATE deliveries SET ack_state = 'acked', acked_at = ?3, acted_by = ?4
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND ack_state <> 'acked';

-- core.take_hold
UPDATE deliveries SET claim_token = ?3, claimed_by = ?4, claim_until = ?5
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND read_at IS NULL
  AND (claim_until IS NULL OR claim_until <= ?6);

-- core.take_mark
UPDATE deliveries SET read_at = ?4, acted_by = ?5,
    claim_token = NULL, claimed_by = NULL, claim_until = NULL
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND claim_token = ?3
  AND read_at IS NULL;

-- core.take_release
UPDATE deliveries SET claim_token = NULL, claimed_by = NULL, claim_until = NULL
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND claim_token = ?3;

-- core.delivery_of
SELECT b.seq AS seq, d.message IS NOT NULL AS has_delivery
FROM beads AS b LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?2
WHERE b.id = ?1;

-- core.mark_all_read
UPDATE deliveries SET read_at = ?2, request_state_at = CASE WHEN request_state = 'submitted' THEN ?2 ELSE request_state_at END, request_state = CASE WHEN request_state = 'submitted' THEN 'working' ELSE request_state END
WHERE recipient = ?1 AND read_at IS NULL AND archived_at IS NULL AND (expires_at IS NULL OR expires_at > ?2);

-- core.select_names
SELECT name, retired_at IS NOT NULL AS retired FROM mailboxes ORDER BY name;

-- core.select_mailbox
SELECT retired_at IS NOT NULL AS retired, last_seen FROM mailboxes WHERE name = ?1;

-- core.insert_mailbox
INSERT INTO mailboxes (name, registered_at) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING;

-- core.reactivate_mailbox
UPDATE mailboxes SET retired_at = NULL WHERE name = ?1 AND retired_at IS NOT NULL;

-- core.retire_mailbox
UPDATE mailboxes SET retired_at = ?2 WHERE name = ?1 AND retired_at IS NULL;

-- core.touch_mailbox
UPDATE mailboxes SET last_seen = ?2, seen_via = ?4
WHERE name = ?1 AND (last_seen IS NULL OR last_seen <= ?2 - ?3);

-- core.touch_unregistered
INSERT INTO unregistered_presence AS p (name, last_seen, seen_via) VALUES (?1, ?2, ?4)
ON CONFLICT (name) DO UPDATE SET last_seen = excluded.last_seen, seen_via = excluded.seen_via
WHERE p.last_seen <= excluded.last_seen - ?3;

-- core.select_agents
SELECT m.name AS name, m.registered_at AS registered_at, m.last_seen AS last_seen,
       coalesce(c.unread, 0) - (
         SELECT count(*) FROM deliveries AS e INDEXED BY deliveries_expiring
         WHERE e.recipient = m.name AND e.read_at IS NULL AND e.archived_at IS NULL AND e.expires_at IS NOT NULL AND e.expires_at <= ?1) AS unread
FROM mailboxes AS m LEFT JOIN mailbox_counts AS c ON c.recipient = m.name
WHERE m.retired_at IS NULL ORDER BY m.name;

-- views.ids_with_prefix
SELECT id FROM beads WHERE id >= ?1 AND id < ?2 ORDER BY id LIMIT 6;

-- views.select_status
SELECT claimed_by, claim_until, recipient, kind, delivered_at, read_at, archived_at, ack_state, acked_at, attempts, last_attempt_at, next_attempt_at, acted_by, handler_attempts, retry_at, set_aside_at, request_state, request_state_at, expires_at
FROM deliveries WHERE message = ?1 ORDER BY rowid;

-- views.resolve_trace
SELECT trace_id FROM beads WHERE id = ?1
UNION ALL
SELECT trace_id FROM (SELECT trace_id FROM beads WHERE trace_id = ?1 LIMIT 1);

-- views.select_trace
SELECT b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, b.addressed_to AS addressed_to, b.subject AS subject, CASE WHEN ?3 <= 4096 THEN substr(b.preview, 1, ?3) ELSE substr(b.body, 1, ?3) END AS body, b.body_bytes AS body_length, b.created_at AS created_at, b.thread_id AS thread_id, b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, b.dedup_key AS dedup_key, b.sender_uid AS sender_uid, b.sender_host AS sender_host, d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, d.last_attempt_at AS last_attempt_at, d.request_state AS request_state, d.expires_at AS delivery_expires_at, (SELECT sm.schedule FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS schedule, (SELECT sm.slot FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS slot 
FROM beads AS b LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?2
WHERE b.trace_id = ?1
ORDER BY b.created_at, b.seq;

-- views.trace_deliveries
SELECT b.id AS id, d.claimed_by AS claimed_by, d.claim_until AS claim_until, d.recipient AS recipient, d.kind AS kind, d.delivered_at AS delivered_at, d.read_at AS read_at, d.archived_at AS archived_at, d.ack_state AS ack_state, d.acked_at AS acked_at, d.attempts AS attempts, d.last_attempt_at AS last_attempt_at, d.next_attempt_at AS next_attempt_at, d.acted_by AS acted_by, d.handler_attempts AS handler_attempts, d.retry_at AS retry_at, d.set_aside_at AS set_aside_at, d.request_state AS request_state, d.request_state_at AS request_state_at, d.expires_at AS expires_at
FROM beads AS b JOIN deliveries AS d ON d.message = b.seq
WHERE b.trace_id = ?1
ORDER BY b.created_at, b.seq, d.rowid;

-- views.recent_traces
SELECT t.trace_id AS trace_id, t.started_at AS started_at, t.last_at AS last_at,
       t.message_count AS message_count, r.id AS root_id, r.sender AS root_from, r.subject AS subject,
       (SELECT count(DISTINCT o.seq) FROM beads AS o JOIN deliveries AS d ON d.message = o.seq
        WHERE o.trace_id = t.trace_id AND ((d.request_state IN ('submitted', 'working') AND (d.expires_at IS NULL OR d.expires_at > ?2)) OR (d.request_state IS NULL AND (d.ack_state = 'escalated' OR (d.ack_state = 'awaiting_ack' AND (d.expires_at IS NULL OR d.expires_at > ?2))))))
         AS open_requests
FROM (SELECT trace_id, min(created_at) AS started_at, max(created_at) AS last_at, count(*) AS message_count
      FROM beads WHERE trace_id <> '' GROUP BY trace_id
      ORDER BY started_at DESC, trace_id LIMIT ?1) AS t
JOIN beads AS r ON r.seq = (SELECT f.seq FROM beads AS f WHERE f.trace_id = t.trace_id
                            ORDER BY f.created_at, f.seq LIMIT 1)
ORDER BY t.started_at DESC, t.trace_id;

-- views.open_deliveries
SELECT d.recipient AS recipient, b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, b.addressed_to AS addressed_to, b.subject AS subject, CASE WHEN ?3 <= 4096 THEN substr(b.preview, 1, ?3) ELSE substr(b.body, 1, ?3) END AS body, b.body_bytes AS body_length, b.created_at AS created_at, b.thread_id AS thread_id, b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, b.dedup_key AS dedup_key, b.sender_uid AS sender_uid, b.sender_host AS sender_host, d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, d.last_attempt_at AS last_attempt_at, d.request_state AS request_state, d.expires_at AS delivery_expires_at, (SELECT sm.schedule FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS schedule, (SELECT sm.slot FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS slot 
FROM deliveries AS d JOIN beads AS b ON b.seq = d.message
WHERE d.archived_at IS NULL AND (?2 = 1 OR d.read_at IS NULL)
  AND (?1 IS NULL OR b.sender = ?1)
ORDER BY d.created_at, d.message, d.recipient;

-- claims.select_claimable
SELECT d.message AS seq, b.id AS id, d.handler_attempts AS handler_attempts FROM deliveries AS d INDEXED BY deliveries_claimable CROSS JOIN beads AS b ON b.seq = d.message WHERE d.recipient = ?1 AND d.read_at IS NULL AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?2) AND d.set_aside_at IS NULL AND (d.request_state IS NULL OR d.request_state IN ('submitted', 'working')) AND (?3 IS NULL OR d.sender = ?3) AND (?4 = '' OR instr(char(10) || ?4 || char(10), char(10) || b.type || char(10)) > 0) 
  AND (d.claim_until IS NULL OR d.claim_until <= ?2)
  AND (d.retry_at IS NULL OR d.retry_at <= ?2)
ORDER BY d.priority, d.created_at, d.message LIMIT 1;

-- claims.next_claimable
SELECT min(max(coalesce(d.claim_until, 0), coalesce(d.retry_at, 0))) AS next_at FROM deliveries AS d INDEXED BY deliveries_claimable CROSS JOIN beads AS b ON b.seq = d.message WHERE d.recipient = ?1 AND d.read_at IS NULL AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?2) AND d.set_aside_at IS NULL AND (d.request_state IS NULL OR d.request_state IN ('submitted', 'working')) AND (?3 IS NULL OR d.sender = ?3) AND (?4 = '' OR instr(char(10) || ?4 || char(10), char(10) || b.type || char(10)) > 0) 
  AND (d.claim_until > ?2 OR d.retry_at > ?2);

-- claims.take
UPDATE deliveries
SET claim_token = ?3, claimed_by = ?4, claim_until = ?5, handler_attempts = handler_attempts + 1,
    request_state_at = CASE WHEN request_state = 'submitted' THEN ?6 ELSE request_state_at END, request_state = CASE WHEN request_state = 'submitted' THEN 'working' ELSE request_state END
WHERE message = ?1 AND recipient = ?2 AND (claim_until IS NULL OR claim_until <= ?6);

-- claims.renew
UPDATE deliveries SET claim_until = ?4
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND claim_token = ?3;

-- claims.finish_done
UPDATE deliveries
SET read_at = coalesce(read_at, ?4),
    acked_at = CASE WHEN ack_state = 'acked' THEN acked_at ELSE ?4 END,
    ack_state = 'acked', request_state_at = CASE WHEN request_state = 'submitted' THEN ?4 ELSE request_state_at END, request_state = CASE WHEN request_state = 'submitted' THEN 'working' ELSE request_state END,
    claim_token = NULL, claimed_by = NULL, claim_until = NULL, retry_at = NULL
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND claim_token = ?3
RETURNING handler_attempts;

-- claims.finish_failed
UPDATE deliveries
SET claim_token = NULL, claimed_by = NULL, claim_until = NULL, retry_at = ?4
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND claim_token = ?3
RETURNING message AS seq, handler_attempts;

-- claims.set_aside
UPDATE deliveries
SET set_aside_at = ?3, claim_token = NULL, claimed_by = NULL, claim_until = NULL, retry_at = NULL,
    request_state_at = CASE WHEN request_state IN ('submitted', 'working') THEN ?3 ELSE request_state_at END, request_state = CASE WHEN request_state IN ('submitted', 'working') THEN 'failed' ELSE request_state END
WHERE message = ?1 AND recipient = ?2;

-- claims.finish_released
UPDATE deliveries
SET claim_token = NULL, claimed_by = NULL, claim_until = NULL,
    handler_attempts = CASE WHEN handler_attempts > 0 THEN handler_attempts - 1 ELSE 0 END
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND claim_token = ?3
RETURNING handler_attempts;

-- health.select_peers
WITH names (peer) AS (
  SELECT recipient FROM peer_pairs
  WHERE sender = ?1 AND recipient <> ?1 AND (?3 IS NULL OR recipient = ?3)
  UNION
  SELECT sender FROM peer_pairs
  WHERE recipient = ?1 AND sender <> ?1 AND (?3 IS NULL OR sender = ?3)
)
SELECT n.peer AS peer, o.last_sent_at AS last_sent_at, o.last_acked_at AS last_acked_at,
       i.last_sent_at AS last_inbound_at, m.last_seen AS last_seen_at,
       (SELECT count(*) FROM deliveries AS p INDEXED BY deliveries_pending
        WHERE p.sender = ?1 AND p.recipient = n.peer AND p.ack_state = 'awaiting_ack'
          AND (p.expires_at IS NULL OR p.expires_at > ?2)) AS pending_count,
       (SELECT min(p.created_at) FROM deliveries AS p INDEXED BY deliveries_pending
        WHERE p.sender = ?1 AND p.recipient = n.peer AND p.ack_state = 'awaiting_ack'
          AND (p.expires_at IS NULL OR p.expires_at > ?2)) AS oldest_pending_at,
       (SELECT count(*) FROM deliveries AS e INDEXED BY deliveries_escalated
        WHERE e.sender = ?1 AND e.recipient = n.peer AND e.ack_state = 'escalated') AS escalated_count,
       (CASE WHEN EXISTS (SELECT 1 FROM peer_pairs AS w
                          JOIN deliveries AS q INDEXED BY deliveries_requests_open
                            ON q.sender = w.sender AND q.recipient = w.recipient
                          WHERE w.recipient = n.peer AND q.request_state IN ('submitted', 'working')
                            AND (q.ack_state = 'escalated' OR q.created_at < ?4)
                            AND (q.expires_at IS NULL OR q.expires_at > ?2))
               OR EXISTS (SELECT 1 FROM peer_pairs AS w
                          JOIN deliveries AS x INDEXED BY deliveries_owed_plain
                            ON x.sender = w.sender AND x.recipient = w.recipient
                          WHERE w.recipient = n.peer AND x.request_state IS NULL
                            AND x.ack_state IN ('awaiting_ack', 'escalated')
                            AND (x.ack_state = 'escalated'
                                 OR (x.created_at < ?4 AND (x.expires_at IS NULL OR x.expires_at > ?2))))
             THEN 1 ELSE 0 END) AS peer_owes_overdue
FROM names AS n
LEFT JOIN peer_pairs AS o ON o.sender = ?1 AND o.recipient = n.peer
LEFT JOIN peer_pairs AS i ON i.sender = n.peer AND i.recipient = ?1
LEFT JOIN mailboxes AS m ON m.name = n.peer;

-- health.select_pairs
SELECT pp.sender AS sender, pp.recipient AS recipient, pp.last_sent_at AS last_sent_at,
       pp.last_acked_at AS last_acked_at,
       (SELECT count(*) FROM deliveries AS p INDEXED BY deliveries_pending
        WHERE p.sender = pp.sender AND p.recipient = pp.recipient AND p.ack_state = 'awaiting_ack'
          AND (p.expires_at IS NULL OR p.expires_at > ?1)) AS pending_count,
       (SELECT min(p.created_at) FROM deliveries AS p INDEXED BY deliveries_pending
        WHERE p.sender = pp.sender AND p.recipient = pp.recipient AND p.ack_state = 'awaiting_ack'
          AND (p.expires_at IS NULL OR p.expires_at > ?1)) AS oldest_pending_at,
       (SELECT count(*) FROM deliveries AS e INDEXED BY deliveries_escalated
        WHERE e.sender = pp.sender AND e.recipient = pp.recipient AND e.ack_state = 'escalated') AS escalated_count,
       (SELECT count(*) FROM deliveries AS x INDEXED BY deliveries_pending
        WHERE x.sender = pp.sender AND x.recipient = pp.recipient AND x.ack_state = 'awaiting_ack'
          AND x.expires_at IS NOT NULL AND x.expires_at <= ?1) AS expired_count
FROM peer_pairs AS pp WHERE pp.sender <> pp.recipient;

-- health.select_due
SELECT d.message AS message, b.id AS id, d.sender AS sender, d.recipient AS recipient, b.subject AS subject, b.thread_id AS thread_id, d.created_at AS created_at, d.attempts AS attempts 
FROM deliveries AS d INDEXED BY deliveries_due CROSS JOIN beads AS b ON b.seq = d.message
WHERE d.ack_state = 'awaiting_ack' AND d.next_attempt_at <= ?1
  AND (d.expires_at IS NULL OR d.expires_at > ?1)
  AND (d.request_state IS NULL OR d.request_state IN ('submitted', 'working'))
  AND (?2 IS NULL OR d.sender = ?2)
  AND (d.last_attempt_at IS NULL OR d.last_attempt_at < ?3)
  AND d.attempts < ?4
ORDER BY d.next_attempt_at, d.message, d.recipient
LIMIT ?5;

-- health.select_due_pairs
SELECT DISTINCT sender, recipient FROM deliveries INDEXED BY deliveries_due
WHERE ack_state = 'awaiting_ack' AND next_attempt_at <= ?1
  AND (expires_at IS NULL OR expires_at > ?1)
  AND (request_state IS NULL OR request_state IN ('submitted', 'working'))
  AND (?2 IS NULL OR sender = ?2)
  AND (last_attempt_at IS NULL OR last_attempt_at < ?3)
  AND attempts >= ?4
ORDER BY sender, recipient;

-- health.select_due_of_pair
SELECT d.message AS message, b.id AS id, d.sender AS sender, d.recipient AS recipient, b.subject AS subject, b.thread_id AS thread_id, d.created_at AS created_at, d.attempts AS attempts 
FROM deliveries AS d INDEXED BY deliveries_pending CROSS JOIN beads AS b ON b.seq = d.message
WHERE d.sender = ?2 AND d.recipient = ?3 AND d.ack_state = 'awaiting_ack' AND d.next_attempt_at <= ?1
  AND (d.expires_at IS NULL OR d.expires_at > ?1)
  AND (d.request_state IS NULL OR d.request_state IN ('submitted', 'working'))
  AND (d.last_attempt_at IS NULL OR d.last_attempt_at < ?4)
  AND d.attempts >= ?5
ORDER BY d.created_at, d.message;

-- health.redeliver
UPDATE deliveries
SET read_at = NULL, archived_at = NULL, attempts = attempts + 1, last_attempt_at = ?3, next_attempt_at = ?4
WHERE message = ?1 AND recipient = ?2 AND ack_state = 'awaiting_ack' AND attempts = ?5;

-- health.escalate
UPDATE deliveries SET ack_state = 'escalated'
WHERE message = ?1 AND recipient = ?2 AND ack_state = 'awaiting_ack' AND attempts = ?3;

-- health.team_mailboxes
SELECT name, retired_at, last_seen, seen_via FROM mailboxes
UNION ALL
SELECT ?1, NULL, p.last_seen, p.seen_via
FROM (SELECT 1) LEFT JOIN unregistered_presence AS p ON p.name = ?1
WHERE NOT EXISTS (SELECT 1 FROM mailboxes WHERE name = ?1)
  AND (p.name IS NOT NULL OR EXISTS (SELECT 1 FROM deliveries WHERE recipient = ?1)
       OR EXISTS (SELECT 1 FROM beads WHERE sender = ?1));

-- health.team_received
SELECT recipient, sum(unread) AS unread, sum(owed) AS owed_count, sum(overdue) AS overdue_count,
       sum(open_all) - sum(claimable) AS set_aside_count
FROM (
  SELECT recipient, sum(read_at IS NULL AND archived_at IS NULL AND (expires_at IS NULL OR expires_at > ?1)) AS unread, count(*) AS open_all,
         0 AS claimable, 0 AS owed, 0 AS overdue
  FROM deliveries INDEXED BY deliveries_unread
  WHERE read_at IS NULL AND archived_at IS NULL GROUP BY recipient
  UNION ALL
  SELECT recipient, 0, 0, count(*), 0, 0 FROM deliveries INDEXED BY deliveries_claimable
  WHERE read_at IS NULL AND archived_at IS NULL AND set_aside_at IS NULL GROUP BY recipient
  UNION ALL
  SELECT recipient, 0, 0, 0, count(*), sum(ack_state = 'escalated' OR created_at < ?2)
  FROM deliveries INDEXED BY deliveries_requests_open
  WHERE request_state IN ('submitted', 'working') AND (expires_at IS NULL OR expires_at > ?1) GROUP BY recipient
  UNION ALL
  SELECT recipient, 0, 0, 0, count(*), sum(ack_state = 'escalated' OR created_at < ?2)
  FROM deliveries INDEXED BY deliveries_owed_plain
  WHERE request_state IS NULL AND ack_state IN ('awaiting_ack', 'escalated')
    AND (ack_state = 'escalated' OR expires_at IS NULL OR expires_at > ?1) GROUP BY recipient
) GROUP BY recipient;

-- health.team_sent
SELECT sender, sum(n) AS awaiting_others_count
FROM (
  SELECT sender, count(*) AS n FROM deliveries INDEXED BY deliveries_requests_open
  WHERE request_state IN ('submitted', 'working') AND recipient <> sender
    AND (expires_at IS NULL OR expires_at > ?1) GROUP BY sender
  UNION ALL
  SELECT sender, count(*) FROM deliveries INDEXED BY deliveries_owed_plain
  WHERE request_state IS NULL AND ack_state IN ('awaiting_ack', 'escalated') AND recipient <> sender
    AND (ack_state = 'escalated' OR expires_at IS NULL OR expires_at > ?1) GROUP BY sender
) GROUP BY sender;

-- health.team_claims
SELECT d.recipient AS recipient, b.id AS id, b.subject AS subject, d.claimed_by AS claimed_by,
  d.claim_until AS claim_until
FROM deliveries AS d CROSS JOIN beads AS b ON b.seq = d.message
WHERE d.claim_until > ?1 AND d.claimed_by IS NOT NULL
ORDER BY d.recipient, d.claim_until, b.id;

-- lists.inbox
SELECT b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, b.addressed_to AS addressed_to, b.subject AS subject, CASE WHEN ?3 <= 4096 THEN substr(b.preview, 1, ?3) ELSE substr(b.body, 1, ?3) END AS body, b.body_bytes AS body_length, b.created_at AS created_at, b.thread_id AS thread_id, b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, b.dedup_key AS dedup_key, b.sender_uid AS sender_uid, b.sender_host AS sender_host, d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, d.last_attempt_at AS last_attempt_at, d.request_state AS request_state, d.expires_at AS delivery_expires_at, (SELECT sm.schedule FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS schedule, (SELECT sm.slot FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS slot FROM deliveries AS d INDEXED BY deliveries_open CROSS JOIN beads AS b ON b.seq = d.message WHERE d.recipient = ?1 AND d.archived_at IS NULL AND (?11 = 0 OR (d.read_at IS NULL AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?2))) AND (?5 IS NULL OR b.sender = ?5) AND (?6 IS NULL OR EXISTS (SELECT 1 FROM deliveries AS r WHERE r.message = b.seq AND r.recipient = ?6)) AND (?7 IS NULL OR instr(?7, char(10) || b.type || char(10)) > 0) AND (?8 IS NULL OR b.priority = ?8) AND (?9 IS NULL OR b.created_at >= ?9) AND (?10 IS NULL OR b.created_at < ?10) AND (?13 IS NULL OR b.thread_id = ?13) ORDER BY d.priority, d.created_at, d.message LIMIT ?4;

-- lists.inbox_count
SELECT count(*) AS total FROM deliveries AS d INDEXED BY deliveries_open CROSS JOIN beads AS b ON b.seq = d.message WHERE d.recipient = ?1 AND d.archived_at IS NULL AND (?11 = 0 OR (d.read_at IS NULL AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?2))) AND (?5 IS NULL OR b.sender = ?5) AND (?6 IS NULL OR EXISTS (SELECT 1 FROM deliveries AS r WHERE r.message = b.seq AND r.recipient = ?6)) AND (?7 IS NULL OR instr(?7, char(10) || b.type || char(10)) > 0) AND (?8 IS NULL OR b.priority = ?8) AND (?9 IS NULL OR b.created_at >= ?9) AND (?10 IS NULL OR b.created_at < ?10) AND (?13 IS NULL OR b.thread_id = ?13) ;

-- lists.inbox_archived
SELECT b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, b.addressed_to AS addressed_to, b.subject AS subject, CASE WHEN ?3 <= 4096 THEN substr(b.preview, 1, ?3) ELSE substr(b.body, 1, ?3) END AS body, b.body_bytes AS body_length, b.created_at AS created_at, b.thread_id AS thread_id, b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, b.dedup_key AS dedup_key, b.sender_uid AS sender_uid, b.sender_host AS sender_host, d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, d.last_attempt_at AS last_attempt_at, d.request_state AS request_state, d.expires_at AS delivery_expires_at, (SELECT sm.schedule FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS schedule, (SELECT sm.slot FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS slot FROM deliveries AS d INDEXED BY deliveries_archived CROSS JOIN beads AS b ON b.seq = d.message WHERE d.recipient = ?1 AND d.archived_at IS NOT NULL AND (?11 = 0 OR d.read_at IS NULL) AND (?5 IS NULL OR b.sender = ?5) AND (?6 IS NULL OR EXISTS (SELECT 1 FROM deliveries AS r WHERE r.message = b.seq AND r.recipient = ?6)) AND (?7 IS NULL OR instr(?7, char(10) || b.type || char(10)) > 0) AND (?8 IS NULL OR b.priority = ?8) AND (?9 IS NULL OR b.created_at >= ?9) AND (?10 IS NULL OR b.created_at < ?10) AND (?13 IS NULL OR b.thread_id = ?13) ORDER BY d.priority, d.created_at, d.message LIMIT ?4;

-- lists.inbox_archived_count
SELECT count(*) AS total FROM deliveries AS d INDEXED BY deliveries_archived CROSS JOIN beads AS b ON b.seq = d.message WHERE d.recipient = ?1 AND d.archived_at IS NOT NULL AND (?11 = 0 OR d.read_at IS NULL) AND (?5 IS NULL OR b.sender = ?5) AND (?6 IS NULL OR EXISTS (SELECT 1 FROM deliveries AS r WHERE r.message = b.seq AND r.recipient = ?6)) AND (?7 IS NULL OR instr(?7, char(10) || b.type || char(10)) > 0) AND (?8 IS NULL OR b.priority = ?8) AND (?9 IS NULL OR b.created_at >= ?9) AND (?10 IS NULL OR b.created_at < ?10) AND (?13 IS NULL OR b.thread_id = ?13) ;

-- lists.sent
SELECT b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, b.addressed_to AS addressed_to, b.subject AS subject, CASE WHEN ?3 <= 4096 THEN substr(b.preview, 1, ?3) ELSE substr(b.body, 1, ?3) END AS body, b.body_bytes AS body_length, b.created_at AS created_at, b.thread_id AS thread_id, b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, b.dedup_key AS dedup_key, b.sender_uid AS sender_uid, b.sender_host AS sender_host, d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, d.last_attempt_at AS last_attempt_at, d.request_state AS request_state, d.expires_at AS delivery_expires_at, (SELECT sm.schedule FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS schedule, (SELECT sm.slot FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS slot FROM beads AS b INDEXED BY beads_sender LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?1 WHERE b.sender = ?1 AND (?11 = 0 OR EXISTS (SELECT 1 FROM deliveries AS u WHERE u.message = b.seq AND u.read_at IS NULL AND u.archived_at IS NULL AND (u.expires_at IS NULL OR u.expires_at > ?2))) AND (?12 = 0 OR EXISTS (SELECT 1 FROM deliveries AS u WHERE u.message = b.seq AND u.archived_at IS NOT NULL)) AND (?5 IS NULL OR b.sender = ?5) AND (?6 IS NULL OR EXISTS (SELECT 1 FROM deliveries AS r WHERE r.message = b.seq AND r.recipient = ?6)) AND (?7 IS NULL OR instr(?7, char(10) || b.type || char(10)) > 0) AND (?8 IS NULL OR b.priority = ?8) AND (?9 IS NULL OR b.created_at >= ?9) AND (?10 IS NULL OR b.created_at < ?10) AND (?13 IS NULL OR b.thread_id = ?13) ORDER BY b.created_at DESC, b.seq DESC LIMIT ?4;

-- lists.sent_count
SELECT count(*) AS total FROM beads AS b INDEXED BY beads_sender LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?1 WHERE b.sender = ?1 AND (?11 = 0 OR EXISTS (SELECT 1 FROM deliveries AS u WHERE u.message = b.seq AND u.read_at IS NULL AND u.archived_at IS NULL AND (u.expires_at IS NULL OR u.expires_at > ?2))) AND (?12 = 0 OR EXISTS (SELECT 1 FROM deliveries AS u WHERE u.message = b.seq AND u.archived_at IS NOT NULL)) AND (?5 IS NULL OR b.sender = ?5) AND (?6 IS NULL OR EXISTS (SELECT 1 FROM deliveries AS r WHERE r.message = b.seq AND r.recipient = ?6)) AND (?7 IS NULL OR instr(?7, char(10) || b.type || char(10)) > 0) AND (?8 IS NULL OR b.priority = ?8) AND (?9 IS NULL OR b.created_at >= ?9) AND (?10 IS NULL OR b.created_at < ?10) AND (?13 IS NULL OR b.thread_id = ?13) ;

-- lists.sent_summary
SELECT count(*) AS recipients, coalesce(sum(read_at IS NOT NULL), 0) AS read,
       coalesce(sum(archived_at IS NOT NULL), 0) AS archived,
       coalesce(sum(ack_state = 'acked'), 0) AS acked,
       coalesce(sum(ack_state = 'awaiting_ack'), 0) AS awaiting,
       coalesce(sum(ack_state = 'escalated'), 0) AS escalated,
       coalesce(sum(claim_until > ?2 AND claimed_by IS NOT NULL), 0) AS claimed,
       coalesce(sum(set_aside_at IS NOT NULL AND read_at IS NULL), 0) AS set_aside,
       coalesce(sum(handler_attempts > 0 AND read_at IS NULL AND set_aside_at IS NULL
                    AND NOT coalesce(claim_until > ?2 AND claimed_by IS NOT NULL, 0)), 0) AS handler_failed
FROM deliveries WHERE message = ?1;

-- lists.search_hits
SELECT b.seq AS seq, mailroom_rank(beads_fts, 4.0, 1.0, 2.0) AS score FROM beads_fts CROSS JOIN beads AS b ON b.seq = beads_fts.rowid LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?1 WHERE beads_fts MATCH ?14 AND (?1 IS NULL OR b.sender = ?1 OR d.message IS NOT NULL) AND (?11 = 0 OR (d.message IS NOT NULL AND d.read_at IS NULL AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?2))) AND (?12 = 0 OR d.archived_at IS NOT NULL) AND (?5 IS NULL OR b.sender = ?5) AND (?6 IS NULL OR EXISTS (SELECT 1 FROM deliveries AS r WHERE r.message = b.seq AND r.recipient = ?6)) AND (?7 IS NULL OR instr(?7, char(10) || b.type || char(10)) > 0) AND (?8 IS NULL OR b.priority = ?8) AND (?9 IS NULL OR b.created_at >= ?9) AND (?10 IS NULL OR b.created_at < ?10) AND (?13 IS NULL OR b.thread_id = ?13) ;

-- lists.message_by_seq
SELECT b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, b.addressed_to AS addressed_to, b.subject AS subject, CASE WHEN ?3 <= 4096 THEN substr(b.preview, 1, ?3) ELSE substr(b.body, 1, ?3) END AS body, b.body_bytes AS body_length, b.created_at AS created_at, b.thread_id AS thread_id, b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, b.dedup_key AS dedup_key, b.sender_uid AS sender_uid, b.sender_host AS sender_host, d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, d.last_attempt_at AS last_attempt_at, d.request_state AS request_state, d.expires_at AS delivery_expires_at, (SELECT sm.schedule FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS schedule, (SELECT sm.slot FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS slot 
FROM beads AS b LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?2
WHERE b.seq = ?1;

-- transfer.mailboxes
SELECT name, registered_at, retired_at, last_seen FROM mailboxes ORDER BY name;

-- transfer.message_seqs
SELECT seq FROM beads WHERE ?1 IS NULL OR created_at >= ?1 ORDER BY created_at, seq;

-- transfer.deliveries
SELECT message, recipient, kind, delivered_at, read_at, archived_at, ack_state, acked_at, attempts, last_attempt_at, next_attempt_at, acted_by, handler_attempts, retry_at, set_aside_at, request_state, request_state_at, expires_at FROM deliveries WHERE message = ?1 ORDER BY rowid;

-- transfer.keys
SELECT k.sender AS sender, k.key AS key, k.fingerprint AS fingerprint, b.id AS message, k.created_at AS created_at FROM idempotency_keys AS k LEFT JOIN beads AS b ON b.seq = k.message WHERE ?1 IS NULL OR k.created_at >= ?1 ORDER BY k.sender, k.key;

-- transfer.mailbox_exists
SELECT 1 FROM mailboxes WHERE name = ?1;

-- transfer.insert_mailbox
INSERT INTO mailboxes (name, registered_at, retired_at, last_seen) VALUES (?1, ?2, ?3, ?4);

-- transfer.message_seq
SELECT seq FROM beads WHERE id = ?1;

-- transfer.delivery
SELECT message, recipient, kind, delivered_at, read_at, archived_at, ack_state, acked_at, attempts, last_attempt_at, next_attempt_at, acted_by, handler_attempts, retry_at, set_aside_at, request_state, request_state_at, expires_at FROM deliveries WHERE message = ?1 AND recipient = ?2;

-- transfer.insert_delivery
INSERT INTO deliveries (message, recipient, kind, priority, created_at, delivered_at, sender, expires_at,
                        read_at, archived_at, ack_state, attempts, last_attempt_at, next_attempt_at,
                        acted_by, handler_attempts, retry_at, set_aside_at, request_state, request_state_at)
SELECT b.seq, ?2, ?3, b.priority, b.created_at, ?4, b.sender, CASE WHEN ?17 THEN ?18 ELSE b.expires_at END,
       ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16
FROM beads AS b WHERE b.seq = ?1;

-- transfer.set_acked_at
UPDATE deliveries SET acked_at = ?3 WHERE message = ?1 AND recipient = ?2;

-- transfer.key
SELECT k.sender AS sender, k.key AS key, k.fingerprint AS fingerprint, b.id AS message, k.created_at AS created_at FROM idempotency_keys AS k LEFT JOIN beads AS b ON b.seq = k.message WHERE k.sender = ?1 AND k.key = ?2;

-- transfer.insert_key
INSERT INTO idempotency_keys (sender, key, fingerprint, message, created_at) VALUES (?1, ?2, ?3, ?4, ?5);

-- transfer.purgeable
SELECT b.seq AS seq, (SELECT count(*) FROM deliveries AS c WHERE c.message = b.seq) AS deliveries
FROM beads AS b
WHERE (b.expires_at IS NOT NULL AND b.expires_at <= ?1)
   OR (EXISTS (SELECT 1 FROM deliveries AS a WHERE a.message = b.seq)
       AND NOT EXISTS (SELECT 1 FROM deliveries AS o
                       WHERE o.message = b.seq AND (o.archived_at IS NULL OR o.archived_at > ?1)))
ORDER BY b.seq;

-- transfer.release_keys
UPDATE idempotency_keys SET message = NULL WHERE message = ?1;

-- transfer.delete_deliveries
DELETE FROM deliveries WHERE message = ?1;

-- transfer.delete_message
DELETE FROM beads WHERE seq = ?1;

-- events.lock
-- (empty)

-- events.insert
INSERT INTO events (at, type, message_id, mailbox, actor) VALUES (?1, ?2, ?3, ?4, ?5);

-- events.after
SELECT seq, at, type, message_id, mailbox, actor FROM events WHERE seq > ?1 ORDER BY seq LIMIT ?2;

-- events.pruned
SELECT through FROM events_pruned;

-- events.last
SELECT max(seq) AS seq FROM events;

-- events.nth_newest
SELECT seq FROM events ORDER BY seq DESC LIMIT 1 OFFSET ?1;

-- events.first_recent
SELECT seq FROM events WHERE at >= ?1 ORDER BY seq LIMIT 1;

-- events.prune
DELETE FROM events WHERE seq <= ?1;

-- events.set_pruned
UPDATE events_pruned SET through = ?1 WHERE through < ?1;

-- requests.answer
UPDATE deliveries SET request_state = ?3, request_state_at = ?4
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2
  AND request_state IN ('submitted', 'working', 'input_required');

-- requests.resume
UPDATE deliveries
SET request_state = 'working', request_state_at = ?3, read_at = NULL,
    expires_at = expires_at + (?3 - coalesce(request_state_at, ?3))
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2
  AND request_state = 'input_required';

-- requests.cancel
UPDATE deliveries SET request_state = 'canceled', request_state_at = ?3,
    expires_at = CASE WHEN expires_at IS NULL OR expires_at > ?3 THEN ?3 ELSE expires_at END
WHERE message = ?1 AND recipient = ?2 AND request_state IN ('submitted', 'working', 'input_required') AND (request_state = 'input_required' OR expires_at IS NULL OR expires_at > ?3);

-- schedules.insert
INSERT INTO schedules (id, sender, name, created_at, created_by, rule_kind, at_ms, every_ms, anchor, cron, tz, start_at, until_at, catch_up, overlap, to_list, cc_list, subject, body, priority, type, ack, ttl_ms, notify, idempotency_key, next_at, paused_at, ended_at, end_reason, last_run_now, escalated, last_slot, last_kind)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33);

-- schedules.update
UPDATE schedules SET (rule_kind, at_ms, every_ms, anchor, cron, tz, start_at, until_at, catch_up, overlap, to_list, cc_list, subject, body, priority, type, ack, ttl_ms, notify, idempotency_key, next_at, paused_at, ended_at, end_reason, last_run_now, escalated, last_slot, last_kind) =
  (?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29)
WHERE id = ?1;

-- schedules.by_name
SELECT s.id AS id, s.sender AS sender, s.name AS name, s.created_at AS created_at, s.created_by AS created_by, s.rule_kind AS rule_kind, s.at_ms AS at_ms, s.every_ms AS every_ms, s.anchor AS anchor, s.cron AS cron, s.tz AS tz, s.start_at AS start_at, s.until_at AS until_at, s.catch_up AS catch_up, s.overlap AS overlap, s.to_list AS to_list, s.cc_list AS cc_list, s.subject AS subject, s.body AS body, s.priority AS priority, s.type AS type, s.ack AS ack, s.ttl_ms AS ttl_ms, s.notify AS notify, s.idempotency_key AS idempotency_key, s.next_at AS next_at, s.paused_at AS paused_at, s.ended_at AS ended_at, s.end_reason AS end_reason, s.last_run_now AS last_run_now, s.escalated AS escalated, f.slot AS last_slot, f.kind AS last_kind, f.fired_at AS last_fired_at, f.outcome AS last_outcome, f.message_id AS last_message_id, f.slot_count AS last_slot_count, f.through_slot AS last_through_slot, f.error_code AS last_error_code, f.detail AS last_detail 
FROM schedules AS s LEFT JOIN firings AS f
  ON f.schedule = s.id AND f.slot = s.last_slot AND f.kind = s.last_kind
WHERE s.sender = ?1 AND s.name = ?2
ORDER BY CASE WHEN s.ended_at IS NULL THEN 0 ELSE 1 END, s.created_at DESC, s.id
LIMIT 1;

-- schedules.by_key
SELECT s.id AS id, s.sender AS sender, s.name AS name, s.created_at AS created_at, s.created_by AS created_by, s.rule_kind AS rule_kind, s.at_ms AS at_ms, s.every_ms AS every_ms, s.anchor AS anchor, s.cron AS cron, s.tz AS tz, s.start_at AS start_at, s.until_at AS until_at, s.catch_up AS catch_up, s.overlap AS overlap, s.to_list AS to_list, s.cc_list AS cc_list, s.subject AS subject, s.body AS body, s.priority AS priority, s.type AS type, s.ack AS ack, s.ttl_ms AS ttl_ms, s.notify AS notify, s.idempotency_key AS idempotency_key, s.next_at AS next_at, s.paused_at AS paused_at, s.ended_at AS ended_at, s.end_reason AS end_reason, s.last_run_now AS last_run_now, s.escalated AS escalated, f.slot AS last_slot, f.kind AS last_kind, f.fired_at AS last_fired_at, f.outcome AS last_outcome, f.message_id AS last_message_id, f.slot_count AS last_slot_count, f.through_slot AS last_through_slot, f.error_code AS last_error_code, f.detail AS last_detail 
FROM schedules AS s LEFT JOIN firings AS f
  ON f.schedule = s.id AND f.slot = s.last_slot AND f.kind = s.last_kind
WHERE s.sender = ?1 AND s.idempotency_key = ?2;

-- schedules.by_id
SELECT s.id AS id, s.sender AS sender, s.name AS name, s.created_at AS created_at, s.created_by AS created_by, s.rule_kind AS rule_kind, s.at_ms AS at_ms, s.every_ms AS every_ms, s.anchor AS anchor, s.cron AS cron, s.tz AS tz, s.start_at AS start_at, s.until_at AS until_at, s.catch_up AS catch_up, s.overlap AS overlap, s.to_list AS to_list, s.cc_list AS cc_list, s.subject AS subject, s.body AS body, s.priority AS priority, s.type AS type, s.ack AS ack, s.ttl_ms AS ttl_ms, s.notify AS notify, s.idempotency_key AS idempotency_key, s.next_at AS next_at, s.paused_at AS paused_at, s.ended_at AS ended_at, s.end_reason AS end_reason, s.last_run_now AS last_run_now, s.escalated AS escalated, f.slot AS last_slot, f.kind AS last_kind, f.fired_at AS last_fired_at, f.outcome AS last_outcome, f.message_id AS last_message_id, f.slot_count AS last_slot_count, f.through_slot AS last_through_slot, f.error_code AS last_error_code, f.detail AS last_detail 
FROM schedules AS s LEFT JOIN firings AS f
  ON f.schedule = s.id AND f.slot = s.last_slot AND f.kind = s.last_kind
WHERE s.id = ?1 ;

-- schedules.list
SELECT s.id AS id, s.sender AS sender, s.name AS name, s.created_at AS created_at, s.created_by AS created_by, s.rule_kind AS rule_kind, s.at_ms AS at_ms, s.every_ms AS every_ms, s.anchor AS anchor, s.cron AS cron, s.tz AS tz, s.start_at AS start_at, s.until_at AS until_at, s.catch_up AS catch_up, s.overlap AS overlap, s.to_list AS to_list, s.cc_list AS cc_list, s.subject AS subject, s.body AS body, s.priority AS priority, s.type AS type, s.ack AS ack, s.ttl_ms AS ttl_ms, s.notify AS notify, s.idempotency_key AS idempotency_key, s.next_at AS next_at, s.paused_at AS paused_at, s.ended_at AS ended_at, s.end_reason AS end_reason, s.last_run_now AS last_run_now, s.escalated AS escalated, f.slot AS last_slot, f.kind AS last_kind, f.fired_at AS last_fired_at, f.outcome AS last_outcome, f.message_id AS last_message_id, f.slot_count AS last_slot_count, f.through_slot AS last_through_slot, f.error_code AS last_error_code, f.detail AS last_detail 
FROM schedules AS s LEFT JOIN firings AS f
  ON f.schedule = s.id AND f.slot = s.last_slot AND f.kind = s.last_kind
WHERE (?1 IS NULL OR s.sender = ?1) AND (?2 = 1 OR s.ended_at IS NULL)
ORDER BY s.sender, s.name, s.created_at, s.id;

-- schedules.names
SELECT name FROM schedules WHERE sender = ?1 AND ended_at IS NULL ORDER BY name;

-- schedules.due
SELECT id FROM schedules
WHERE ended_at IS NULL AND paused_at IS NULL AND next_at <= ?1 AND (?2 IS NULL OR sender = ?2)
ORDER BY next_at, id
LIMIT ?3;

-- schedules.insert_firing
INSERT INTO firings (schedule, slot, kind, fired_at, outcome, message_id, slot_count, through_slot, error_code, detail)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
ON CONFLICT (schedule, slot, kind) DO NOTHING;

-- schedules.firing
SELECT slot, kind, fired_at, outcome, message_id, slot_count, through_slot, error_code, detail FROM firings WHERE schedule = ?1 AND slot = ?2 AND kind = ?3;

-- schedules.firings
SELECT slot, kind, fired_at, outcome, message_id, slot_count, through_slot, error_code, detail FROM firings WHERE schedule = ?1
ORDER BY seq DESC LIMIT ?2;

-- schedules.all_firings
SELECT schedule, slot, kind, fired_at, outcome, message_id, slot_count, through_slot, error_code, detail FROM firings ORDER BY schedule, seq;

-- schedules.last_sent
SELECT message_id FROM firings
WHERE schedule = ?1 AND message_id IS NOT NULL AND outcome IN ('sent', 'partial')
ORDER BY seq DESC LIMIT 1;

-- schedules.prune_firings
DELETE FROM firings WHERE schedule = ?1 AND seq <= (
  SELECT seq FROM firings WHERE schedule = ?1 ORDER BY seq DESC LIMIT 1 OFFSET ?2);

-- schedules.requests
SELECT d.recipient AS recipient, d.read_at AS read_at, b.type AS type,
       coalesce(d.expires_at, b.expires_at) AS expires_at, d.request_state AS request_state,
       CASE WHEN EXISTS (SELECT 1 FROM beads AS r
                         WHERE r.thread_id = b.thread_id AND r.reply_to = b.id
                           AND r.sender = d.recipient) THEN 1 ELSE 0 END AS replied
FROM beads AS b JOIN deliveries AS d ON d.message = b.seq
WHERE b.id = ?1
ORDER BY d.rowid;

-- schedules.insert_scheduled_message
INSERT INTO scheduled_messages (message, schedule, slot) VALUES (?1, ?2, ?3);

-- schedules.beat
INSERT INTO firers (host, pid, kind, beat_at) VALUES (?1, ?2, ?3, ?4)
ON CONFLICT (host, pid) DO UPDATE SET kind = excluded.kind, beat_at = excluded.beat_at;

-- schedules.prune_beats
DELETE FROM firers WHERE beat_at < ?1;

-- schedules.firer_status
SELECT (SELECT max(beat_at) FROM firers) AS last_beat,
       (SELECT min(next_at) FROM schedules WHERE ended_at IS NULL AND paused_at IS NULL) AS next_due;

-- wakes.set_target
INSERT INTO wake_targets (mailbox, target, host, uid, socket, set_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
ON CONFLICT (mailbox) DO UPDATE SET target = excluded.target, host = excluded.host, uid = excluded.uid, socket = excluded.socket, set_at = excluded.set_at;

-- wakes.remove_target
DELETE FROM wake_targets WHERE mailbox = ?1;

-- wakes.target_of
SELECT mailbox, target, host, uid, socket, set_at, hook_at FROM wake_targets WHERE mailbox = ?1;

-- wakes.targets
SELECT mailbox, target, host, uid, socket, set_at, hook_at FROM wake_targets ORDER BY mailbox;

-- wakes.recipients
SELECT DISTINCT recipient FROM wake_ledger ORDER BY recipient;

-- wakes.newest
SELECT recipient, message, target, attempt, outcome, reason, created_at, due_at, claimed_at, updated_at, combined, combined_into, socket, host, uid FROM wake_ledger WHERE recipient = ?1
ORDER BY updated_at DESC, created_at DESC, message DESC LIMIT 1;

-- wakes.hook_ran
UPDATE wake_targets SET hook_at = ?2 WHERE mailbox = ?1;

-- wakes.plan
INSERT INTO wake_ledger (recipient, message, target, attempt, outcome, host, uid, socket, created_at, due_at, updated_at)
SELECT d.recipient, b.id, t.target, ?2, 'pending', t.host, t.uid, t.socket, ?3, ?3, ?3
FROM beads AS b JOIN deliveries AS d ON d.message = b.seq
  JOIN wake_targets AS t ON t.mailbox = d.recipient
WHERE b.id = ?1 AND (?4 = '' OR d.recipient = ?4)
ON CONFLICT (recipient, message, target, attempt) DO NOTHING;

-- wakes.of_message
SELECT recipient, message, target, attempt FROM wake_ledger
WHERE message = ?1 AND attempt = ?2 AND outcome = 'pending' AND claimed_at IS NULL AND host = ?3 AND uid = ?4
ORDER BY recipient, target;

-- wakes.due
SELECT recipient, message, target, attempt FROM wake_ledger
WHERE host = ?1 AND uid = ?2 AND ((outcome = 'pending' AND claimed_at IS NULL) OR (outcome = 'deferred' AND due_at <= ?3))
ORDER BY due_at, created_at, recipient, message, attempt LIMIT ?4;

-- wakes.give_up
UPDATE wake_ledger SET outcome = 'unreachable', claimed_at = NULL, updated_at = ?1
WHERE outcome IN ('pending', 'deferred') AND created_at < ?2 AND (claimed_at IS NULL OR claimed_at < ?3)
RETURNING recipient, message, target, attempt, outcome, reason, created_at, due_at, claimed_at, updated_at, combined, combined_into, socket, host, uid;

-- wakes.row
SELECT recipient, message, target, attempt, outcome, reason, created_at, due_at, claimed_at, updated_at, combined, combined_into, socket, host, uid FROM wake_ledger WHERE recipient = ?1 AND message = ?2 AND target = ?3 AND attempt = ?4;

-- wakes.claim
UPDATE wake_ledger SET claimed_at = ?5, updated_at = ?5
WHERE recipient = ?1 AND message = ?2 AND target = ?3 AND attempt = ?4 AND claimed_at IS NULL AND (outcome = 'pending' OR (outcome = 'deferred' AND due_at <= ?5));

-- wakes.validate
SELECT b.sender AS sender, b.subject AS subject,
  CASE WHEN d.request_state = 'canceled' THEN 'canceled'
       WHEN d.archived_at IS NOT NULL THEN 'archived'
       WHEN d.expires_at IS NOT NULL AND d.expires_at <= ?3 THEN 'expired'
       WHEN NOT (d.read_at IS NULL AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?3)) THEN 'read'
       WHEN d.request_state IS NOT NULL AND d.request_state <> 'submitted' THEN 'not_submitted'
       ELSE '' END AS skip
FROM beads AS b JOIN deliveries AS d ON d.message = b.seq
WHERE b.id = ?1 AND d.recipient = ?2;

-- wakes.pair_insert
INSERT INTO wake_pairs (recipient, target, last_wake_at) VALUES (?1, ?2, NULL)
ON CONFLICT (recipient, target) DO NOTHING;

-- wakes.pair_take
UPDATE wake_pairs SET last_wake_at = ?3
WHERE recipient = ?1 AND target = ?2 AND (last_wake_at IS NULL OR last_wake_at < ?3 - ?4);

-- wakes.pair_last
SELECT last_wake_at FROM wake_pairs WHERE recipient = ?1 AND target = ?2;

-- wakes.settle
UPDATE wake_ledger SET outcome = ?5, reason = ?6, due_at = ?7, claimed_at = NULL, updated_at = ?8
WHERE recipient = ?1 AND message = ?2 AND target = ?3 AND attempt = ?4;

-- wakes.combine
UPDATE wake_ledger SET outcome = 'combined', combined_into = ?3, updated_at = ?4
WHERE recipient = ?1 AND target = ?2 AND outcome = 'deferred' AND NOT (message = ?3 AND attempt = ?5);

-- wakes.set_combined
UPDATE wake_ledger SET combined = ?5 WHERE recipient = ?1 AND message = ?2 AND target = ?3 AND attempt = ?4;

-- wakes.finish
UPDATE wake_ledger SET outcome = ?5, reason = ?6, updated_at = ?7, due_at = ?8, claimed_at = CASE WHEN ?5 = 'deferred' THEN NULL ELSE claimed_at END
WHERE recipient = ?1 AND message = ?2 AND target = ?3 AND attempt = ?4 AND outcome = 'pending' AND claimed_at IS NOT NULL;

-- wakes.ledger
SELECT recipient, message, target, attempt, outcome, reason, created_at, due_at, claimed_at, updated_at, combined, combined_into, socket, host, uid FROM wake_ledger
WHERE (?1 = '' OR recipient = ?1)
ORDER BY updated_at DESC, created_at DESC, recipient, message, attempt LIMIT ?2;

-- wakes.ready
SELECT 1 AS ready FROM wake_ledger AS l
  LEFT JOIN wake_pairs AS p ON p.recipient = l.recipient AND p.target = l.target
WHERE l.recipient = ?1 AND l.message = ?2 AND l.attempt = 0 AND l.outcome = 'pending' AND l.claimed_at IS NULL AND l.host = ?3 AND l.uid = ?4 AND (p.last_wake_at IS NULL OR p.last_wake_at < ?5 - ?6)
LIMIT 1;

-- wakes.prune
DELETE FROM wake_ledger WHERE outcome NOT IN ('pending', 'deferred') AND updated_at < ?1
  AND EXISTS (SELECT 1 FROM wake_ledger AS n WHERE n.recipient = wake_ledger.recipient AND n.outcome NOT IN ('pending', 'deferred') AND n.updated_at > wake_ledger.updated_at);

-- wakes.all_rows
SELECT recipient, message, target, attempt, outcome, reason, created_at, due_at, claimed_at, updated_at, combined, combined_into, socket, host, uid FROM wake_ledger ORDER BY recipient, message, target, attempt;

-- wakes.import_target
INSERT INTO wake_targets (mailbox, target, host, uid, socket, set_at, hook_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7);

-- wakes.import_row
INSERT INTO wake_ledger (recipient, message, target, attempt, outcome, reason, created_at, due_at, claimed_at, updated_at, combined, combined_into, socket, host, uid)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15);

-- visibility.mark
INSERT INTO visibility (who, word, bits) VALUES (?1, ?2 >> 6, 1 << (?2 & 63))
ON CONFLICT (who, word) DO UPDATE SET bits = bits | excluded.bits;

-- visibility.clear
UPDATE visibility SET bits = bits & ~(1 << (?1 & 63)) WHERE word = ?1 >> 6 AND who IN (SELECT sender FROM beads WHERE seq = ?1 UNION SELECT recipient FROM deliveries WHERE message = ?1);

-- visibility.drop
DELETE FROM visibility WHERE bits = 0 AND word = ?1 >> 6 AND who IN (SELECT sender FROM beads WHERE seq = ?1 UNION SELECT recipient FROM deliveries WHERE message = ?1);

-- visibility.unfiltered_search
SELECT f.rowid AS seq, mailroom_rank(beads_fts, 4.0, 1.0, 2.0) AS score FROM beads_fts AS f WHERE beads_fts MATCH ?14 AND mailroom_visible(?1, f.rowid);

-- schema.v1
CREATE TABLE beads (
  seq          INTEGER PRIMARY KEY,
  id           TEXT NOT NULL UNIQUE,
  kind         TEXT NOT NULL DEFAULT 'message',
  status       TEXT NOT NULL DEFAULT 'open',
  sender       TEXT NOT NULL,
  to_list      TEXT NOT NULL DEFAULT '',
  cc_list      TEXT NOT NULL DEFAULT '',
  subject      TEXT NOT NULL,
  body         BLOB NOT NULL,
  created_at   INTEGER NOT NULL,
  thread_id    TEXT NOT NULL,
  reply_to     TEXT,
  priority     INTEGER NOT NULL CHECK (priority BETWEEN 0 AND 4),
  type         TEXT NOT NULL,
  sender_uid   INTEGER NOT NULL,
  sender_host  TEXT NOT NULL
);
CREATE INDEX beads_thread ON beads (thread_id, created_at);

CREATE TABLE deliveries (
  message      INTEGER NOT NULL REFERENCES beads (seq),
  recipient    TEXT NOT NULL,
  kind         TEXT NOT NULL CHECK (kind IN ('to', 'cc')),
  priority     INTEGER NOT NULL,
  created_at   INTEGER NOT NULL,
  delivered_at INTEGER NOT NULL,
  read_at      INTEGER,
  archived_at  INTEGER,
  PRIMARY KEY (message, recipient)
);
-- Partial and covering: inbox, check and count read only the caller's open deliveries, already in
-- inbox order, and never touch the table rows (read_at/archived_at make the index covering).
CREATE INDEX deliveries_unread
  ON deliveries (recipient, priority, created_at, message, read_at, archived_at)
  WHERE read_at IS NULL AND archived_at IS NULL;
CREATE INDEX deliveries_open
  ON deliveries (recipient, priority, created_at, message, read_at, archived_at)
  WHERE archived_at IS NULL;

CREATE TABLE mailboxes (
  name          TEXT PRIMARY KEY,
  registered_at INTEGER NOT NULL,
  retired_at    INTEGER,
  last_seen     INTEGER
) WITHOUT ROWID;

CREATE TABLE idempotency_keys (
  sender      TEXT NOT NULL,
  key         TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  message     INTEGER NOT NULL REFERENCES beads (seq),
  created_at  INTEGER NOT NULL,
  UNIQUE (sender, key)
);
;

-- schema.v2
ALTER TABLE beads ADD COLUMN addressed_to TEXT NOT NULL DEFAULT '';
ALTER TABLE beads ADD COLUMN trace_id TEXT NOT NULL DEFAULT '';
ALTER TABLE beads ADD COLUMN span_id TEXT NOT NULL DEFAULT '';
ALTER TABLE beads ADD COLUMN parent_span_id TEXT;
ALTER TABLE beads ADD COLUMN expires_at INTEGER;
UPDATE beads SET trace_id = lower(hex(randomblob(16))), span_id = lower(hex(randomblob(8)));
CREATE INDEX beads_sender ON beads (sender, created_at);
CREATE INDEX beads_trace ON beads (trace_id, created_at);
CREATE INDEX beads_reply_to ON beads (reply_to) WHERE reply_to IS NOT NULL;

ALTER TABLE deliveries ADD COLUMN sender TEXT NOT NULL DEFAULT '';
ALTER TABLE deliveries ADD COLUMN expires_at INTEGER;
ALTER TABLE deliveries ADD COLUMN ack_state TEXT NOT NULL DEFAULT 'none'
  CHECK (ack_state IN ('none', 'awaiting_ack', 'acked', 'escalated'));
ALTER TABLE deliveries ADD COLUMN acked_at INTEGER;
ALTER TABLE deliveries ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE deliveries ADD COLUMN last_attempt_at INTEGER;
ALTER TABLE deliveries ADD COLUMN next_attempt_at INTEGER;
ALTER TABLE deliveries ADD COLUMN acted_by TEXT;
ALTER TABLE deliveries ADD COLUMN claim_token TEXT;
ALTER TABLE deliveries ADD COLUMN claimed_by TEXT;
ALTER TABLE deliveries ADD COLUMN claim_until INTEGER;
ALTER TABLE deliveries ADD COLUMN handler_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE deliveries ADD COLUMN retry_at INTEGER;
ALTER TABLE deliveries ADD COLUMN set_aside_at INTEGER;
UPDATE deliveries SET sender = (SELECT b.sender FROM beads AS b WHERE b.seq = deliveries.message);

DROP INDEX deliveries_unread;
DROP INDEX deliveries_open;
-- Inbox order is priority, then arrival (created_at, then seq), all in the index.
CREATE INDEX deliveries_unread ON deliveries (recipient, priority, created_at, message, expires_at)
  WHERE read_at IS NULL AND archived_at IS NULL;
CREATE INDEX deliveries_open ON deliveries (recipient, priority, created_at, message, read_at, expires_at)
  WHERE archived_at IS NULL;
CREATE INDEX deliveries_expiring ON deliveries (recipient, expires_at)
  WHERE expires_at IS NOT NULL AND read_at IS NULL AND archived_at IS NULL;
CREATE INDEX deliveries_pending ON deliveries (sender, recipient, created_at)
  WHERE ack_state = 'awaiting_ack';
CREATE INDEX deliveries_escalated ON deliveries (sender, recipient) WHERE ack_state = 'escalated';
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE ack_state = 'awaiting_ack';
CREATE INDEX deliveries_claimable ON deliveries (recipient, priority, created_at, message)
  WHERE read_at IS NULL AND archived_at IS NULL AND set_aside_at IS NULL;

CREATE TABLE mailbox_counts (
  recipient TEXT PRIMARY KEY,
  total     INTEGER NOT NULL,
  unread    INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO mailbox_counts (recipient, total, unread)
  SELECT recipient, sum(archived_at IS NULL), sum(archived_at IS NULL AND read_at IS NULL)
  FROM deliveries GROUP BY recipient;
CREATE TRIGGER deliveries_count_insert AFTER INSERT ON deliveries BEGIN
  INSERT INTO mailbox_counts (recipient, total, unread)
  VALUES (new.recipient, new.archived_at IS NULL, new.archived_at IS NULL AND new.read_at IS NULL)
  ON CONFLICT (recipient) DO UPDATE SET total = total + excluded.total, unread = unread + excluded.unread;
END;
CREATE TRIGGER deliveries_count_update AFTER UPDATE OF read_at, archived_at ON deliveries BEGIN
  UPDATE mailbox_counts
  SET total = total + (new.archived_at IS NULL) - (old.archived_at IS NULL),
      unread = unread + (new.archived_at IS NULL AND new.read_at IS NULL)
                      - (old.archived_at IS NULL AND old.read_at IS NULL)
  WHERE recipient = new.recipient;
END;
CREATE TRIGGER deliveries_count_delete AFTER DELETE ON deliveries BEGIN
  UPDATE mailbox_counts
  SET total = total - (old.archived_at IS NULL),
      unread = unread - (old.archived_at IS NULL AND old.read_at IS NULL)
  WHERE recipient = old.recipient;
END;

CREATE TABLE peer_pairs (
  sender        TEXT NOT NULL,
  recipient     TEXT NOT NULL,
  last_sent_at  INTEGER,
  last_acked_at INTEGER,
  PRIMARY KEY (sender, recipient)
) WITHOUT ROWID;
-- peers lists the pairs a mailbox is on either side of: by sender through the key, by recipient here.
CREATE INDEX peer_pairs_inbound ON peer_pairs (recipient, sender);
INSERT INTO peer_pairs (sender, recipient, last_sent_at, last_acked_at)
  SELECT sender, recipient, max(created_at), max(acked_at) FROM deliveries GROUP BY sender, recipient;
CREATE TRIGGER deliveries_pair_insert AFTER INSERT ON deliveries BEGIN
  INSERT INTO peer_pairs (sender, recipient, last_sent_at) VALUES (new.sender, new.recipient, new.created_at)
  ON CONFLICT (sender, recipient) DO UPDATE
    SET last_sent_at = max(coalesce(last_sent_at, 0), excluded.last_sent_at);
END;
CREATE TRIGGER deliveries_pair_ack AFTER UPDATE OF acked_at ON deliveries WHEN new.acked_at IS NOT NULL BEGIN
  UPDATE peer_pairs SET last_acked_at = max(coalesce(last_acked_at, 0), new.acked_at)
  WHERE sender = new.sender AND recipient = new.recipient;
END;

CREATE VIRTUAL TABLE beads_fts USING fts5(
  subject, body, sender, content = 'beads', content_rowid = 'seq',
  tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);
CREATE TRIGGER beads_fts_insert AFTER INSERT ON beads BEGIN
  INSERT INTO beads_fts (rowid, subject, body, sender) VALUES (new.seq, new.subject, new.body, new.sender);
END;
CREATE TRIGGER beads_fts_delete AFTER DELETE ON beads BEGIN
  INSERT INTO beads_fts (beads_fts, rowid, subject, body, sender)
  VALUES ('delete', old.seq, old.subject, old.body, old.sender);
END;
INSERT INTO beads_fts (beads_fts) VALUES ('rebuild');
;

-- schema.v3
CREATE TABLE idempotency_keys_v3 (
  sender      TEXT NOT NULL,
  key         TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  message     INTEGER REFERENCES beads (seq),
  created_at  INTEGER NOT NULL,
  UNIQUE (sender, key)
);
INSERT INTO idempotency_keys_v3 (sender, key, fingerprint, message, created_at)
  SELECT sender, key, fingerprint, message, created_at FROM idempotency_keys;
DROP TABLE idempotency_keys;
ALTER TABLE idempotency_keys_v3 RENAME TO idempotency_keys;
CREATE INDEX idempotency_keys_message ON idempotency_keys (message) WHERE message IS NOT NULL;
CREATE INDEX deliveries_archived ON deliveries (recipient, priority, created_at, message)
  WHERE archived_at IS NOT NULL;
;

-- schema.v4
CREATE TABLE visibility (
  who  TEXT NOT NULL,
  word INTEGER NOT NULL,
  bits INTEGER NOT NULL,
  PRIMARY KEY (who, word)
) WITHOUT ROWID;
;

-- schema.v5
ALTER TABLE mailboxes ADD COLUMN seen_via TEXT;
;

-- schema.v6
-- (empty)

-- schema.v7
CREATE INDEX deliveries_awaiting ON deliveries (recipient, created_at, message, expires_at)
  WHERE ack_state IN ('awaiting_ack', 'escalated') AND read_at IS NULL AND archived_at IS NULL;
;

-- schema.v8
CREATE TABLE events (
  seq        INTEGER PRIMARY KEY AUTOINCREMENT,
  at         INTEGER NOT NULL,
  type       TEXT NOT NULL,
  message_id TEXT NOT NULL,
  mailbox    TEXT NOT NULL,
  actor      TEXT NOT NULL
);
CREATE TABLE events_pruned (
  singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
  through   INTEGER NOT NULL
);
INSERT INTO events_pruned (singleton, through) VALUES (1, 0);
;

-- schema.v9
CREATE TABLE unregistered_presence (
  name      TEXT PRIMARY KEY,
  last_seen INTEGER NOT NULL,
  seen_via  TEXT
) WITHOUT ROWID;
;

-- schema.v10
ALTER TABLE deliveries ADD COLUMN request_state TEXT
  CHECK (request_state IN ('submitted', 'working', 'input_required', 'completed', 'failed', 'rejected',
                           'canceled'));
ALTER TABLE deliveries ADD COLUMN request_state_at INTEGER;
UPDATE deliveries SET request_state = CASE
    WHEN set_aside_at IS NOT NULL THEN 'failed'
    WHEN read_at IS NOT NULL OR claim_token IS NOT NULL THEN 'working'
    ELSE 'submitted' END
WHERE message IN (SELECT seq FROM beads WHERE type IN ('task_request', 'cron_task'));
UPDATE deliveries SET request_state = 'completed'
WHERE rowid IN (SELECT d.rowid FROM beads AS r
                JOIN beads AS o ON o.id = r.reply_to
                JOIN deliveries AS d ON d.message = o.seq AND d.recipient = r.sender
                WHERE r.reply_to IS NOT NULL AND d.request_state IN ('submitted', 'working'));
CREATE INDEX deliveries_requests_open ON deliveries (sender, recipient, created_at, expires_at, ack_state)
  WHERE request_state IN ('submitted', 'working');
CREATE INDEX deliveries_owed_plain ON deliveries (sender, recipient, created_at, expires_at, ack_state)
  WHERE request_state IS NULL AND ack_state IN ('awaiting_ack', 'escalated');
;

-- schema.v11
DROP TRIGGER IF EXISTS beads_fts_insert;
DROP TRIGGER IF EXISTS beads_fts_delete;
CREATE TABLE beads_v11 (
  seq            INTEGER PRIMARY KEY,
  id             TEXT NOT NULL UNIQUE,
  kind           TEXT NOT NULL DEFAULT 'message',
  status         TEXT NOT NULL DEFAULT 'open',
  sender         TEXT NOT NULL,
  to_list        TEXT NOT NULL DEFAULT '',
  cc_list        TEXT NOT NULL DEFAULT '',
  subject        TEXT NOT NULL,
  created_at     INTEGER NOT NULL,
  thread_id      TEXT NOT NULL,
  reply_to       TEXT,
  priority       INTEGER NOT NULL CHECK (priority BETWEEN 0 AND 4),
  type           TEXT NOT NULL,
  sender_uid     INTEGER NOT NULL,
  sender_host    TEXT NOT NULL,
  addressed_to   TEXT NOT NULL DEFAULT '',
  trace_id       TEXT NOT NULL DEFAULT '',
  span_id        TEXT NOT NULL DEFAULT '',
  parent_span_id TEXT,
  expires_at     INTEGER,
  dedup_key      TEXT,
  body_bytes     INTEGER NOT NULL,
  preview        BLOB NOT NULL,
  body           BLOB NOT NULL
);
INSERT INTO beads_v11 (seq, id, kind, status, sender, to_list, cc_list, subject, created_at, thread_id,
                       reply_to, priority, type, sender_uid, sender_host, addressed_to, trace_id, span_id,
                       parent_span_id, expires_at, body_bytes, preview, body)
SELECT seq, id, kind, status, sender, to_list, cc_list, subject, created_at, thread_id,
       reply_to, priority, type, sender_uid, sender_host, addressed_to, trace_id, span_id,
       parent_span_id, expires_at, body_bytes, preview, body
FROM beads ORDER BY seq;
DROP TABLE beads;
ALTER TABLE beads_v11 RENAME TO beads;
CREATE INDEX beads_thread ON beads (thread_id, created_at);
CREATE INDEX beads_sender ON beads (sender, created_at);
CREATE INDEX beads_trace ON beads (trace_id, created_at);
CREATE INDEX beads_reply_to ON beads (reply_to) WHERE reply_to IS NOT NULL;
CREATE INDEX beads_dedup ON beads (sender, dedup_key, seq) WHERE dedup_key IS NOT NULL;
CREATE TRIGGER beads_fts_insert AFTER INSERT ON beads BEGIN
  INSERT INTO beads_fts (rowid, subject, body, sender) VALUES (new.seq, new.subject, new.body, new.sender);
END;
CREATE TRIGGER beads_fts_delete AFTER DELETE ON beads BEGIN
  INSERT INTO beads_fts (beads_fts, rowid, subject, body, sender)
  VALUES ('delete', old.seq, old.subject, old.body, old.sender);
END;
;

-- schema.v12
CREATE TABLE schedules (
  id              TEXT PRIMARY KEY,
  sender          TEXT NOT NULL,
  name            TEXT NOT NULL,
  created_at      INTEGER NOT NULL,
  created_by      TEXT NOT NULL,
  rule_kind       TEXT NOT NULL CHECK (rule_kind IN ('at', 'every', 'cron')),
  at_ms           INTEGER,
  every_ms        INTEGER,
  anchor          INTEGER,
  cron            TEXT,
  tz              TEXT NOT NULL,
  start_at        INTEGER,
  until_at        INTEGER,
  catch_up        TEXT NOT NULL,
  overlap         TEXT NOT NULL,
  to_list         TEXT NOT NULL,
  cc_list         TEXT NOT NULL,
  subject         TEXT,
  body            BLOB NOT NULL,
  priority        INTEGER NOT NULL,
  type            TEXT NOT NULL,
  ack             INTEGER NOT NULL,
  ttl_ms          INTEGER,
  notify          INTEGER NOT NULL,
  idempotency_key TEXT,
  next_at         INTEGER,
  paused_at       INTEGER,
  ended_at        INTEGER,
  end_reason      TEXT,
  last_run_now    INTEGER,
  escalated       INTEGER NOT NULL DEFAULT 0,
  last_slot       INTEGER,
  last_kind       TEXT
) WITHOUT ROWID;
CREATE UNIQUE INDEX schedules_live_name ON schedules (sender, name) WHERE ended_at IS NULL;
CREATE UNIQUE INDEX schedules_key ON schedules (sender, idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX schedules_due ON schedules (next_at) WHERE ended_at IS NULL AND paused_at IS NULL;

CREATE TABLE firings (
  seq          INTEGER PRIMARY KEY AUTOINCREMENT,
  schedule     TEXT NOT NULL REFERENCES schedules (id),
  slot         INTEGER NOT NULL,
  kind         TEXT NOT NULL CHECK (kind IN ('slot', 'run_now')),
  fired_at     INTEGER NOT NULL,
  outcome      TEXT NOT NULL,
  message_id   TEXT,
  slot_count   INTEGER NOT NULL DEFAULT 1,
  through_slot INTEGER,
  error_code   TEXT NOT NULL DEFAULT '',
  detail       TEXT NOT NULL DEFAULT '',
  UNIQUE (schedule, slot, kind)
);
CREATE INDEX firings_history ON firings (schedule, seq);

CREATE TABLE scheduled_messages (
  message  INTEGER PRIMARY KEY REFERENCES beads (seq) ON DELETE CASCADE,
  schedule TEXT NOT NULL,
  slot     INTEGER NOT NULL
);

CREATE TABLE firers (
  host    TEXT NOT NULL,
  pid     INTEGER NOT NULL,
  kind    TEXT NOT NULL,
  beat_at INTEGER NOT NULL,
  PRIMARY KEY (host, pid)
) WITHOUT ROWID;
;

-- schema.v13
CREATE TABLE wake_targets (
  mailbox TEXT PRIMARY KEY,
  target  TEXT NOT NULL,
  host    TEXT NOT NULL,
  uid     INTEGER NOT NULL,
  socket  TEXT NOT NULL DEFAULT '',
  set_at  INTEGER NOT NULL,
  hook_at INTEGER
) WITHOUT ROWID;

CREATE TABLE wake_ledger (
  recipient     TEXT NOT NULL,
  message       TEXT NOT NULL,
  target        TEXT NOT NULL,
  attempt       INTEGER NOT NULL,
  outcome       TEXT NOT NULL CHECK (outcome IN ('pending', 'sent', 'failed', 'deferred', 'combined',
                                                 'skipped', 'unreachable')),
  reason        TEXT NOT NULL DEFAULT '',
  host          TEXT NOT NULL,
  uid           INTEGER NOT NULL,
  socket        TEXT NOT NULL DEFAULT '',
  created_at    INTEGER NOT NULL,
  due_at        INTEGER NOT NULL,
  claimed_at    INTEGER,
  updated_at    INTEGER NOT NULL,
  combined      INTEGER NOT NULL DEFAULT 0,
  combined_into TEXT,
  PRIMARY KEY (recipient, message, target, attempt)
) WITHOUT ROWID;
CREATE INDEX wake_ledger_due ON wake_ledger (outcome, due_at);
CREATE INDEX wake_ledger_newest ON wake_ledger (recipient, updated_at);

CREATE TABLE wake_pairs (
  recipient    TEXT NOT NULL,
  target       TEXT NOT NULL,
  last_wake_at INTEGER,
  PRIMARY KEY (recipient, target)
) WITHOUT ROWID;
;

-- schema.v14
DROP INDEX IF EXISTS deliveries_awaiting;
CREATE INDEX deliveries_owed_unread ON deliveries (recipient, created_at, message, priority, expires_at,
                                                 request_state, ack_state, read_at, archived_at)
  WHERE read_at IS NULL AND archived_at IS NULL
    AND (request_state IN ('submitted', 'working') OR (request_state IS NULL AND ack_state IN ('awaiting_ack', 'escalated')));
;

-- schema.visibility_from_rows
INSERT INTO visibility (who, word, bits)
SELECT who, seq >> 6, sum(DISTINCT 1 << (seq & 63))
FROM (SELECT sender AS who, seq FROM beads WHERE seq > ?1
      UNION ALL SELECT recipient, message FROM deliveries WHERE message > ?1)
GROUP BY 1, 2
ON CONFLICT (who, word) DO UPDATE SET bits = bits | excluded.bits;
