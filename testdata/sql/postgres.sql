-- The PostgreSQL store's SQL, every statement as it runs.
-- Written by a unit test; regenerate with `make golden-sql` (docs/store.md, "Reading the SQL").

-- core.select_message
SELECT b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, b.addressed_to AS addressed_to, b.subject AS subject, CASE WHEN ?3::integer <= 4096 AND b.preview IS NOT NULL THEN substr(b.preview, 1, ?3::integer) ELSE substr(b.body, 1, ?3::integer) END AS body, coalesce(b.body_bytes, octet_length(b.body)) AS body_length, b.created_at AS created_at, b.thread_id AS thread_id, b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, b.dedup_key AS dedup_key, b.sender_uid AS sender_uid, b.sender_host AS sender_host, d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, d.last_attempt_at AS last_attempt_at, d.request_state AS request_state, d.expires_at AS delivery_expires_at, (SELECT sm.schedule FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS schedule, (SELECT sm.slot FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS slot 
FROM beads AS b LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?2
WHERE b.id = ?1;

-- core.select_unread
SELECT b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, b.addressed_to AS addressed_to, b.subject AS subject, CASE WHEN ?3::integer <= 4096 AND b.preview IS NOT NULL THEN substr(b.preview, 1, ?3::integer) ELSE substr(b.body, 1, ?3::integer) END AS body, coalesce(b.body_bytes, octet_length(b.body)) AS body_length, b.created_at AS created_at, b.thread_id AS thread_id, b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, b.dedup_key AS dedup_key, b.sender_uid AS sender_uid, b.sender_host AS sender_host, d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, d.last_attempt_at AS last_attempt_at, d.request_state AS request_state, d.expires_at AS delivery_expires_at, (SELECT sm.schedule FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS schedule, (SELECT sm.slot FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS slot 
FROM deliveries AS d JOIN beads AS b ON b.seq = d.message
WHERE d.recipient = ?1 AND d.read_at IS NULL AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?2::bigint)
ORDER BY d.priority, d.created_at, d.message 
LIMIT CASE WHEN ?4::bigint >= 0 THEN ?4::bigint END;

-- core.select_open
SELECT b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, b.addressed_to AS addressed_to, b.subject AS subject, CASE WHEN ?3::integer <= 4096 AND b.preview IS NOT NULL THEN substr(b.preview, 1, ?3::integer) ELSE substr(b.body, 1, ?3::integer) END AS body, coalesce(b.body_bytes, octet_length(b.body)) AS body_length, b.created_at AS created_at, b.thread_id AS thread_id, b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, b.dedup_key AS dedup_key, b.sender_uid AS sender_uid, b.sender_host AS sender_host, d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, d.last_attempt_at AS last_attempt_at, d.request_state AS request_state, d.expires_at AS delivery_expires_at, (SELECT sm.schedule FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS schedule, (SELECT sm.slot FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS slot 
FROM deliveries AS d JOIN beads AS b ON b.seq = d.message
WHERE d.recipient = ?1 AND d.archived_at IS NULL AND (?2::bigint IS NULL OR true)
ORDER BY d.priority, d.created_at, d.message 
LIMIT CASE WHEN ?4::bigint >= 0 THEN ?4::bigint END;

-- core.count
SELECT count(*) AS total,
       count(*) FILTER (WHERE read_at IS NULL AND archived_at IS NULL AND (expires_at IS NULL OR expires_at > ?2::bigint)) AS unread
FROM deliveries WHERE recipient = ?1 AND archived_at IS NULL;

-- core.count_unread
SELECT count(*) AS unread FROM deliveries AS d WHERE d.recipient = ?1 AND d.read_at IS NULL AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?2::bigint);

-- core.select_awaiting
SELECT b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, b.addressed_to AS addressed_to, b.subject AS subject, CASE WHEN ?3::integer <= 4096 AND b.preview IS NOT NULL THEN substr(b.preview, 1, ?3::integer) ELSE substr(b.body, 1, ?3::integer) END AS body, coalesce(b.body_bytes, octet_length(b.body)) AS body_length, b.created_at AS created_at, b.thread_id AS thread_id, b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, b.dedup_key AS dedup_key, b.sender_uid AS sender_uid, b.sender_host AS sender_host, d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, d.last_attempt_at AS last_attempt_at, d.request_state AS request_state, d.expires_at AS delivery_expires_at, (SELECT sm.schedule FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS schedule, (SELECT sm.slot FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS slot 
FROM deliveries AS d JOIN beads AS b ON b.seq = d.message
WHERE d.recipient = ?1 AND d.priority <> 0 AND d.read_at IS NULL AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?2::bigint)
  AND (d.request_state IN ('submitted', 'working') OR (d.request_state IS NULL AND d.ack_state IN ('awaiting_ack', 'escalated'))) AND ((d.request_state IN ('submitted', 'working') AND (d.expires_at IS NULL OR d.expires_at > ?2::bigint)) OR (d.request_state IS NULL AND (d.ack_state = 'escalated' OR (d.ack_state = 'awaiting_ack' AND (d.expires_at IS NULL OR d.expires_at > ?2::bigint)))))
ORDER BY d.created_at, d.message
LIMIT CASE WHEN ?4::bigint >= 0 THEN ?4::bigint END;

-- core.count_classes
SELECT (SELECT count(*) FROM deliveries AS d
        WHERE d.recipient = ?1 AND d.priority = 0 AND d.read_at IS NULL AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?2::bigint)) AS urgent,
       count(*) AS owed, count(*) FILTER (WHERE d.priority = 0) AS owed_urgent
FROM deliveries AS d
WHERE d.recipient = ?1 AND d.read_at IS NULL AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?2::bigint)
  AND (d.request_state IN ('submitted', 'working') OR (d.request_state IS NULL AND d.ack_state IN ('awaiting_ack', 'escalated'))) AND ((d.request_state IN ('submitted', 'working') AND (d.expires_at IS NULL OR d.expires_at > ?2::bigint)) OR (d.request_state IS NULL AND (d.ack_state = 'escalated' OR (d.ack_state = 'awaiting_ack' AND (d.expires_at IS NULL OR d.expires_at > ?2::bigint)))));

-- core.resolve_thread
SELECT thread_id FROM (
  (SELECT thread_id, 0 AS rank FROM beads WHERE id = ?1)
  UNION ALL
  (SELECT thread_id, 1 AS rank FROM beads WHERE thread_id = ?1 LIMIT 1)
) AS found ORDER BY rank LIMIT 1;

-- core.select_thread
SELECT b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, b.addressed_to AS addressed_to, b.subject AS subject, CASE WHEN ?3::integer <= 4096 AND b.preview IS NOT NULL THEN substr(b.preview, 1, ?3::integer) ELSE substr(b.body, 1, ?3::integer) END AS body, coalesce(b.body_bytes, octet_length(b.body)) AS body_length, b.created_at AS created_at, b.thread_id AS thread_id, b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, b.dedup_key AS dedup_key, b.sender_uid AS sender_uid, b.sender_host AS sender_host, d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, d.last_attempt_at AS last_attempt_at, d.request_state AS request_state, d.expires_at AS delivery_expires_at, (SELECT sm.schedule FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS schedule, (SELECT sm.slot FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS slot 
FROM beads AS b LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?2
WHERE b.thread_id = ?1
ORDER BY b.created_at, b.seq;

-- core.select_unread_ids
SELECT b.id AS id
FROM deliveries AS d JOIN beads AS b ON b.seq = d.message
WHERE d.recipient = ?1 AND d.read_at IS NULL AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?2::bigint)
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
SELECT pg_advisory_xact_lock(hashtext(?1), hashtext(?2));

-- core.live_copy
SELECT b.id AS id FROM beads AS b JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?3
WHERE b.sender = ?1 AND b.dedup_key = ?2 AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?4::bigint)
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
                      acted_by = ?4, request_state_at = CASE WHEN set_aside_at IS NOT NULL AND request_state = 'failed' THEN ?3::bigint ELSE request_state_at END, request_state = CASE WHEN set_aside_at IS NOT NULL AND request_state = 'failed' THEN 'submitted' ELSE request_state END
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND (?3::bigint IS NULL OR true)
  AND (read_at IS NOT NULL OR set_aside_at IS NOT NULL);

-- core.archive
UPDATE deliveries SET archived_at = ?3, acted_by = ?4
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND archived_at IS NULL;

-- core.unarchive
UPDATE deliveries SET archived_at = NULL, acted_by = ?4
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND (?3::bigint IS NULL OR true)
  AND archived_at IS NOT NULL;

-- core.ack
UPDATE deliveries SET ack_state = 'acked', acked_at = ?3, acted_by = ?4
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND ack_state <> 'acked';

-- core.take_hold
UPDATE deliveries SET claim_token = ?3, claimed_by = ?4, claim_until = ?5::bigint
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND read_at IS NULL
  AND (claim_until IS NULL OR claim_until <= ?6::bigint);

-- core.take_mark
UPDATE deliveries SET read_at = ?4::bigint, acted_by = ?5,
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
UPDATE deliveries AS d SET read_at = ?2, request_state_at = CASE WHEN request_state = 'submitted' THEN ?2::bigint ELSE request_state_at END, request_state = CASE WHEN request_state = 'submitted' THEN 'working' ELSE request_state END WHERE d.recipient = ?1 AND d.read_at IS NULL AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?2::bigint);

-- core.select_names
SELECT name, retired_at IS NOT NULL AS retired FROM mailboxes ORDER BY name;

-- core.select_mailbox
SELECT m.retired_at IS NOT NULL AS retired, p.last_seen AS last_seen
FROM mailboxes AS m LEFT JOIN mailbox_presence AS p ON p.name = m.name
WHERE m.name = ?1;

-- core.insert_mailbox
INSERT INTO mailboxes (name, registered_at) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING;

-- core.reactivate_mailbox
UPDATE mailboxes SET retired_at = NULL WHERE name = ?1 AND retired_at IS NOT NULL;

-- core.retire_mailbox
UPDATE mailboxes SET retired_at = ?2 WHERE name = ?1 AND retired_at IS NULL;

-- core.touch_mailbox
INSERT INTO mailbox_presence AS p (name, last_seen, seen_via)
SELECT m.name, ?2::bigint, ?4::text FROM mailboxes AS m WHERE m.name = ?1
ON CONFLICT (name) DO UPDATE SET last_seen = excluded.last_seen, seen_via = excluded.seen_via
WHERE p.last_seen <= excluded.last_seen - ?3::bigint;

-- core.touch_unregistered
INSERT INTO mailbox_presence AS p (name, last_seen, seen_via) VALUES (?1::text, ?2::bigint, ?4::text)
ON CONFLICT (name) DO UPDATE SET last_seen = excluded.last_seen, seen_via = excluded.seen_via
WHERE p.last_seen <= excluded.last_seen - ?3::bigint;

-- core.select_agents
SELECT m.name AS name, m.registered_at AS registered_at, p.last_seen AS last_seen,
       coalesce(u.unread, 0) AS unread
FROM mailboxes AS m
LEFT JOIN mailbox_presence AS p ON p.name = m.name
LEFT JOIN (
  SELECT d.recipient, count(*) AS unread FROM deliveries AS d
  WHERE d.read_at IS NULL AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?1::bigint)
  GROUP BY d.recipient
) AS u ON u.recipient = m.name
WHERE m.retired_at IS NULL ORDER BY m.name;

-- views.ids_with_prefix
SELECT id FROM beads WHERE id >= ?1 AND id < ?2 ORDER BY id LIMIT 6;

-- views.select_status
SELECT claimed_by, claim_until, recipient, kind, delivered_at, read_at, archived_at, ack_state, acked_at, attempts, last_attempt_at, next_attempt_at, acted_by, handler_attempts, retry_at, set_aside_at, request_state, request_state_at, expires_at
FROM deliveries WHERE message = ?1 ORDER BY ordinal;

-- views.resolve_trace
SELECT trace_id FROM (
  (SELECT trace_id, 0 AS rank FROM beads WHERE id = ?1)
  UNION ALL
  (SELECT trace_id, 1 AS rank FROM beads WHERE trace_id = ?1 LIMIT 1)
) AS found ORDER BY rank LIMIT 1;

-- views.select_trace
SELECT b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, b.addressed_to AS addressed_to, b.subject AS subject, CASE WHEN ?3::integer <= 4096 AND b.preview IS NOT NULL THEN substr(b.preview, 1, ?3::integer) ELSE substr(b.body, 1, ?3::integer) END AS body, coalesce(b.body_bytes, octet_length(b.body)) AS body_length, b.created_at AS created_at, b.thread_id AS thread_id, b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, b.dedup_key AS dedup_key, b.sender_uid AS sender_uid, b.sender_host AS sender_host, d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, d.last_attempt_at AS last_attempt_at, d.request_state AS request_state, d.expires_at AS delivery_expires_at, (SELECT sm.schedule FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS schedule, (SELECT sm.slot FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS slot 
FROM beads AS b LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?2
WHERE b.trace_id = ?1
ORDER BY b.created_at, b.seq;

-- views.trace_deliveries
SELECT b.id AS id, d.claimed_by AS claimed_by, d.claim_until AS claim_until, d.recipient AS recipient, d.kind AS kind, d.delivered_at AS delivered_at, d.read_at AS read_at, d.archived_at AS archived_at, d.ack_state AS ack_state, d.acked_at AS acked_at, d.attempts AS attempts, d.last_attempt_at AS last_attempt_at, d.next_attempt_at AS next_attempt_at, d.acted_by AS acted_by, d.handler_attempts AS handler_attempts, d.retry_at AS retry_at, d.set_aside_at AS set_aside_at, d.request_state AS request_state, d.request_state_at AS request_state_at, d.expires_at AS expires_at
FROM beads AS b JOIN deliveries AS d ON d.message = b.seq
WHERE b.trace_id = ?1
ORDER BY b.created_at, b.seq, d.ordinal;

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
SELECT d.recipient AS recipient, b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, b.addressed_to AS addressed_to, b.subject AS subject, CASE WHEN ?3::integer <= 4096 AND b.preview IS NOT NULL THEN substr(b.preview, 1, ?3::integer) ELSE substr(b.body, 1, ?3::integer) END AS body, coalesce(b.body_bytes, octet_length(b.body)) AS body_length, b.created_at AS created_at, b.thread_id AS thread_id, b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, b.dedup_key AS dedup_key, b.sender_uid AS sender_uid, b.sender_host AS sender_host, d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, d.last_attempt_at AS last_attempt_at, d.request_state AS request_state, d.expires_at AS delivery_expires_at, (SELECT sm.schedule FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS schedule, (SELECT sm.slot FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS slot 
FROM deliveries AS d JOIN beads AS b ON b.seq = d.message
WHERE d.archived_at IS NULL AND (?2::integer = 1 OR d.read_at IS NULL)
  AND (?1::text IS NULL OR b.sender = ?1)
ORDER BY d.created_at, d.message, d.recipient;

-- claims.select_claimable
SELECT d.message AS seq, b.id AS id, d.handler_attempts AS handler_attempts FROM deliveries AS d JOIN beads AS b ON b.seq = d.message WHERE d.recipient = ?1 AND d.read_at IS NULL AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?2::bigint) AND d.set_aside_at IS NULL AND (d.request_state IS NULL OR d.request_state IN ('submitted', 'working')) AND (?3::text IS NULL OR d.sender = ?3) AND (?4::text = '' OR strpos(chr(10) || ?4 || chr(10), chr(10) || b.type || chr(10)) > 0) 
  AND (d.claim_until IS NULL OR d.claim_until <= ?2::bigint)
  AND (d.retry_at IS NULL OR d.retry_at <= ?2::bigint)
ORDER BY d.priority, d.created_at, d.message LIMIT 1
FOR UPDATE OF d SKIP LOCKED;

-- claims.next_claimable
SELECT min(greatest(coalesce(d.claim_until, 0), coalesce(d.retry_at, 0))) AS next_at FROM deliveries AS d JOIN beads AS b ON b.seq = d.message WHERE d.recipient = ?1 AND d.read_at IS NULL AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?2::bigint) AND d.set_aside_at IS NULL AND (d.request_state IS NULL OR d.request_state IN ('submitted', 'working')) AND (?3::text IS NULL OR d.sender = ?3) AND (?4::text = '' OR strpos(chr(10) || ?4 || chr(10), chr(10) || b.type || chr(10)) > 0) 
  AND (d.claim_until > ?2::bigint OR d.retry_at > ?2::bigint);

-- claims.take
UPDATE deliveries
SET claim_token = ?3, claimed_by = ?4, claim_until = ?5, handler_attempts = handler_attempts + 1,
    request_state_at = CASE WHEN request_state = 'submitted' THEN ?6::bigint ELSE request_state_at END, request_state = CASE WHEN request_state = 'submitted' THEN 'working' ELSE request_state END
WHERE message = ?1 AND recipient = ?2 AND (claim_until IS NULL OR claim_until <= ?6::bigint);

-- claims.renew
UPDATE deliveries SET claim_until = ?4
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND claim_token = ?3;

-- claims.finish_done
UPDATE deliveries
SET read_at = coalesce(read_at, ?4::bigint),
    acked_at = CASE WHEN ack_state = 'acked' THEN acked_at ELSE ?4::bigint END,
    ack_state = 'acked', request_state_at = CASE WHEN request_state = 'submitted' THEN ?4::bigint ELSE request_state_at END, request_state = CASE WHEN request_state = 'submitted' THEN 'working' ELSE request_state END,
    claim_token = NULL, claimed_by = NULL, claim_until = NULL, retry_at = NULL
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND claim_token = ?3
RETURNING handler_attempts;

-- claims.finish_failed
UPDATE deliveries
SET claim_token = NULL, claimed_by = NULL, claim_until = NULL, retry_at = ?4::bigint
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2 AND claim_token = ?3
RETURNING message AS seq, handler_attempts;

-- claims.set_aside
UPDATE deliveries
SET set_aside_at = ?3::bigint, claim_token = NULL, claimed_by = NULL, claim_until = NULL, retry_at = NULL,
    request_state_at = CASE WHEN request_state IN ('submitted', 'working') THEN ?3::bigint ELSE request_state_at END, request_state = CASE WHEN request_state IN ('submitted', 'working') THEN 'failed' ELSE request_state END
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
  WHERE sender = ?1 AND recipient <> ?1 AND (?3::text IS NULL OR recipient = ?3)
  UNION
  SELECT sender FROM peer_pairs
  WHERE recipient = ?1 AND sender <> ?1 AND (?3::text IS NULL OR sender = ?3)
),
pending (peer, pending_count, oldest_pending_at) AS (
  SELECT recipient, count(*), min(created_at) FROM deliveries
  WHERE sender = ?1 AND ack_state = 'awaiting_ack' AND (?3::text IS NULL OR recipient = ?3)
    AND (expires_at IS NULL OR expires_at > ?2::bigint)
  GROUP BY recipient
),
escalated (peer, escalated_count) AS (
  SELECT recipient, count(*) FROM deliveries
  WHERE sender = ?1 AND ack_state = 'escalated' AND (?3::text IS NULL OR recipient = ?3)
  GROUP BY recipient
)
SELECT n.peer AS peer,
       (SELECT max(s.created_at) FROM deliveries AS s WHERE s.sender = ?1 AND s.recipient = n.peer)
         AS last_sent_at,
       (SELECT max(a.acked_at) FROM deliveries AS a
        WHERE a.sender = ?1 AND a.recipient = n.peer AND a.acked_at IS NOT NULL) AS last_acked_at,
       (SELECT max(i.created_at) FROM deliveries AS i WHERE i.sender = n.peer AND i.recipient = ?1)
         AS last_inbound_at,
       m.last_seen AS last_seen_at,
       coalesce(p.pending_count, 0) AS pending_count, p.oldest_pending_at AS oldest_pending_at,
       coalesce(e.escalated_count, 0) AS escalated_count,
       (CASE WHEN EXISTS (SELECT 1 FROM peer_pairs AS w
                          JOIN deliveries AS q ON q.sender = w.sender AND q.recipient = w.recipient
                          WHERE w.recipient = n.peer AND ((q.request_state IN ('submitted', 'working') AND (q.expires_at IS NULL OR q.expires_at > ?2::bigint)) OR (q.request_state IS NULL AND (q.ack_state = 'escalated' OR (q.ack_state = 'awaiting_ack' AND (q.expires_at IS NULL OR q.expires_at > ?2::bigint)))))
                            AND (q.ack_state = 'escalated' OR q.created_at < ?4::bigint))
             THEN 1 ELSE 0 END)::bigint AS peer_owes_overdue
FROM names AS n
LEFT JOIN mailbox_presence AS m ON m.name = n.peer
LEFT JOIN pending AS p ON p.peer = n.peer
LEFT JOIN escalated AS e ON e.peer = n.peer
ORDER BY n.peer;

-- health.select_pairs
SELECT pp.sender AS sender, pp.recipient AS recipient,
       (SELECT max(s.created_at) FROM deliveries AS s WHERE s.sender = pp.sender AND s.recipient = pp.recipient)
         AS last_sent_at,
       (SELECT max(a.acked_at) FROM deliveries AS a
        WHERE a.sender = pp.sender AND a.recipient = pp.recipient AND a.acked_at IS NOT NULL) AS last_acked_at,
       (SELECT count(*) FROM deliveries AS p
        WHERE p.sender = pp.sender AND p.recipient = pp.recipient AND p.ack_state = 'awaiting_ack'
          AND (p.expires_at IS NULL OR p.expires_at > ?1::bigint)) AS pending_count,
       (SELECT min(p.created_at) FROM deliveries AS p
        WHERE p.sender = pp.sender AND p.recipient = pp.recipient AND p.ack_state = 'awaiting_ack'
          AND (p.expires_at IS NULL OR p.expires_at > ?1::bigint)) AS oldest_pending_at,
       (SELECT count(*) FROM deliveries AS e
        WHERE e.sender = pp.sender AND e.recipient = pp.recipient AND e.ack_state = 'escalated') AS escalated_count,
       (SELECT count(*) FROM deliveries AS x
        WHERE x.sender = pp.sender AND x.recipient = pp.recipient AND x.ack_state = 'awaiting_ack'
          AND x.expires_at IS NOT NULL AND x.expires_at <= ?1::bigint) AS expired_count
FROM peer_pairs AS pp WHERE pp.sender <> pp.recipient;

-- health.select_due
SELECT d.message AS message, b.id AS id, d.sender AS sender, d.recipient AS recipient, b.subject AS subject, b.thread_id AS thread_id, d.created_at AS created_at, d.attempts AS attempts 
FROM deliveries AS d JOIN beads AS b ON b.seq = d.message
WHERE d.ack_state = 'awaiting_ack' AND d.next_attempt_at <= ?1::bigint
  AND (d.expires_at IS NULL OR d.expires_at > ?1::bigint)
  AND (d.request_state IS NULL OR d.request_state IN ('submitted', 'working'))
  AND (?2::text IS NULL OR d.sender = ?2)
  AND (d.last_attempt_at IS NULL OR d.last_attempt_at < ?3::bigint)
  AND d.attempts < ?4::integer
ORDER BY d.next_attempt_at, d.message, d.recipient
LIMIT CASE WHEN ?5::bigint >= 0 THEN ?5::bigint END
FOR UPDATE OF d SKIP LOCKED;

-- health.select_due_pairs
SELECT DISTINCT sender, recipient FROM deliveries
WHERE ack_state = 'awaiting_ack' AND next_attempt_at <= ?1::bigint
  AND (expires_at IS NULL OR expires_at > ?1::bigint)
  AND (request_state IS NULL OR request_state IN ('submitted', 'working'))
  AND (?2::text IS NULL OR sender = ?2)
  AND (last_attempt_at IS NULL OR last_attempt_at < ?3::bigint)
  AND attempts >= ?4::integer
ORDER BY sender, recipient;

-- health.select_due_of_pair
SELECT d.message AS message, b.id AS id, d.sender AS sender, d.recipient AS recipient, b.subject AS subject, b.thread_id AS thread_id, d.created_at AS created_at, d.attempts AS attempts 
FROM deliveries AS d JOIN beads AS b ON b.seq = d.message
WHERE d.sender = ?2 AND d.recipient = ?3 AND d.ack_state = 'awaiting_ack' AND d.next_attempt_at <= ?1::bigint
  AND (d.expires_at IS NULL OR d.expires_at > ?1::bigint)
  AND (d.request_state IS NULL OR d.request_state IN ('submitted', 'working'))
  AND (d.last_attempt_at IS NULL OR d.last_attempt_at < ?4::bigint)
  AND d.attempts >= ?5::integer
ORDER BY d.created_at, d.message
FOR UPDATE OF d SKIP LOCKED;

-- health.redeliver
UPDATE deliveries
SET read_at = NULL, archived_at = NULL, attempts = attempts + 1, last_attempt_at = ?3, next_attempt_at = ?4
WHERE message = ?1 AND recipient = ?2 AND ack_state = 'awaiting_ack' AND attempts = ?5::integer;

-- health.escalate
UPDATE deliveries SET ack_state = 'escalated'
WHERE message = ?1 AND recipient = ?2 AND ack_state = 'awaiting_ack' AND attempts = ?3::integer;

-- health.team_mailboxes
SELECT m.name AS name, m.retired_at AS retired_at, p.last_seen AS last_seen, p.seen_via AS seen_via
FROM mailboxes AS m LEFT JOIN mailbox_presence AS p ON p.name = m.name
UNION ALL
SELECT ?1::text COLLATE "C", NULL::bigint, p.last_seen, p.seen_via
FROM (VALUES (1)) AS one (x) LEFT JOIN mailbox_presence AS p ON p.name = ?1::text
WHERE NOT EXISTS (SELECT 1 FROM mailboxes WHERE name = ?1::text)
  AND (p.name IS NOT NULL OR EXISTS (SELECT 1 FROM deliveries WHERE recipient = ?1::text)
       OR EXISTS (SELECT 1 FROM beads WHERE sender = ?1::text));

-- health.team_received
SELECT recipient,
       count(*) FILTER (WHERE read_at IS NULL AND archived_at IS NULL AND (expires_at IS NULL OR expires_at > ?1::bigint)) AS unread,
       count(*) FILTER (WHERE ((request_state IN ('submitted', 'working') AND (expires_at IS NULL OR expires_at > ?1::bigint)) OR (request_state IS NULL AND (ack_state = 'escalated' OR (ack_state = 'awaiting_ack' AND (expires_at IS NULL OR expires_at > ?1::bigint)))))) AS owed_count,
       count(*) FILTER (WHERE ((request_state IN ('submitted', 'working') AND (expires_at IS NULL OR expires_at > ?1::bigint)) OR (request_state IS NULL AND (ack_state = 'escalated' OR (ack_state = 'awaiting_ack' AND (expires_at IS NULL OR expires_at > ?1::bigint)))))
           AND (ack_state = 'escalated' OR created_at < ?2::bigint)) AS overdue_count,
       count(*) FILTER (WHERE set_aside_at IS NOT NULL AND read_at IS NULL AND archived_at IS NULL)
         AS set_aside_count
FROM deliveries GROUP BY recipient;

-- health.team_sent
SELECT sender, count(*) AS awaiting_others_count FROM deliveries
WHERE recipient <> sender AND ((request_state IN ('submitted', 'working') AND (expires_at IS NULL OR expires_at > ?1::bigint)) OR (request_state IS NULL AND (ack_state = 'escalated' OR (ack_state = 'awaiting_ack' AND (expires_at IS NULL OR expires_at > ?1::bigint)))))
GROUP BY sender;

-- health.team_claims
SELECT d.recipient AS recipient, b.id AS id, b.subject AS subject, d.claimed_by AS claimed_by,
  d.claim_until AS claim_until
FROM deliveries AS d JOIN beads AS b ON b.seq = d.message
WHERE d.claim_until > ?1::bigint AND d.claimed_by IS NOT NULL
ORDER BY d.recipient, d.claim_until, b.id;

-- lists.inbox
SELECT b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, b.addressed_to AS addressed_to, b.subject AS subject, CASE WHEN ?3::integer <= 4096 AND b.preview IS NOT NULL THEN substr(b.preview, 1, ?3::integer) ELSE substr(b.body, 1, ?3::integer) END AS body, coalesce(b.body_bytes, octet_length(b.body)) AS body_length, b.created_at AS created_at, b.thread_id AS thread_id, b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, b.dedup_key AS dedup_key, b.sender_uid AS sender_uid, b.sender_host AS sender_host, d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, d.last_attempt_at AS last_attempt_at, d.request_state AS request_state, d.expires_at AS delivery_expires_at, (SELECT sm.schedule FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS schedule, (SELECT sm.slot FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS slot FROM deliveries AS d JOIN beads AS b ON b.seq = d.message WHERE d.recipient = ?1 AND d.archived_at IS NULL AND (?11::integer = 0 OR (d.read_at IS NULL AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?2::bigint))) AND (?12::integer IS NULL OR true) AND (?2::bigint IS NULL OR true) AND (?3::integer IS NULL OR true) AND (?4::bigint IS NULL OR true) AND (?5::text IS NULL OR b.sender = ?5) AND (?6::text IS NULL OR EXISTS (SELECT 1 FROM deliveries AS r WHERE r.message = b.seq AND r.recipient = ?6)) AND (?7::text IS NULL OR strpos(?7, chr(10) || b.type || chr(10)) > 0) AND (?8::integer IS NULL OR b.priority = ?8) AND (?9::bigint IS NULL OR b.created_at >= ?9) AND (?10::bigint IS NULL OR b.created_at < ?10) AND (?13::text IS NULL OR b.thread_id = ?13) ORDER BY d.priority, d.created_at, d.message LIMIT CASE WHEN ?4::bigint >= 0 THEN ?4::bigint END;

-- lists.inbox_count
SELECT count(*) AS total FROM deliveries AS d JOIN beads AS b ON b.seq = d.message WHERE d.recipient = ?1 AND d.archived_at IS NULL AND (?11::integer = 0 OR (d.read_at IS NULL AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?2::bigint))) AND (?12::integer IS NULL OR true) AND (?2::bigint IS NULL OR true) AND (?3::integer IS NULL OR true) AND (?4::bigint IS NULL OR true) AND (?5::text IS NULL OR b.sender = ?5) AND (?6::text IS NULL OR EXISTS (SELECT 1 FROM deliveries AS r WHERE r.message = b.seq AND r.recipient = ?6)) AND (?7::text IS NULL OR strpos(?7, chr(10) || b.type || chr(10)) > 0) AND (?8::integer IS NULL OR b.priority = ?8) AND (?9::bigint IS NULL OR b.created_at >= ?9) AND (?10::bigint IS NULL OR b.created_at < ?10) AND (?13::text IS NULL OR b.thread_id = ?13) ;

-- lists.inbox_archived
SELECT b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, b.addressed_to AS addressed_to, b.subject AS subject, CASE WHEN ?3::integer <= 4096 AND b.preview IS NOT NULL THEN substr(b.preview, 1, ?3::integer) ELSE substr(b.body, 1, ?3::integer) END AS body, coalesce(b.body_bytes, octet_length(b.body)) AS body_length, b.created_at AS created_at, b.thread_id AS thread_id, b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, b.dedup_key AS dedup_key, b.sender_uid AS sender_uid, b.sender_host AS sender_host, d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, d.last_attempt_at AS last_attempt_at, d.request_state AS request_state, d.expires_at AS delivery_expires_at, (SELECT sm.schedule FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS schedule, (SELECT sm.slot FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS slot FROM deliveries AS d JOIN beads AS b ON b.seq = d.message WHERE d.recipient = ?1 AND d.archived_at IS NOT NULL AND (?11::integer = 0 OR d.read_at IS NULL) AND (?12::integer IS NULL OR true) AND (?2::bigint IS NULL OR true) AND (?3::integer IS NULL OR true) AND (?4::bigint IS NULL OR true) AND (?5::text IS NULL OR b.sender = ?5) AND (?6::text IS NULL OR EXISTS (SELECT 1 FROM deliveries AS r WHERE r.message = b.seq AND r.recipient = ?6)) AND (?7::text IS NULL OR strpos(?7, chr(10) || b.type || chr(10)) > 0) AND (?8::integer IS NULL OR b.priority = ?8) AND (?9::bigint IS NULL OR b.created_at >= ?9) AND (?10::bigint IS NULL OR b.created_at < ?10) AND (?13::text IS NULL OR b.thread_id = ?13) ORDER BY d.priority, d.created_at, d.message LIMIT CASE WHEN ?4::bigint >= 0 THEN ?4::bigint END;

-- lists.inbox_archived_count
SELECT count(*) AS total FROM deliveries AS d JOIN beads AS b ON b.seq = d.message WHERE d.recipient = ?1 AND d.archived_at IS NOT NULL AND (?11::integer = 0 OR d.read_at IS NULL) AND (?12::integer IS NULL OR true) AND (?2::bigint IS NULL OR true) AND (?3::integer IS NULL OR true) AND (?4::bigint IS NULL OR true) AND (?5::text IS NULL OR b.sender = ?5) AND (?6::text IS NULL OR EXISTS (SELECT 1 FROM deliveries AS r WHERE r.message = b.seq AND r.recipient = ?6)) AND (?7::text IS NULL OR strpos(?7, chr(10) || b.type || chr(10)) > 0) AND (?8::integer IS NULL OR b.priority = ?8) AND (?9::bigint IS NULL OR b.created_at >= ?9) AND (?10::bigint IS NULL OR b.created_at < ?10) AND (?13::text IS NULL OR b.thread_id = ?13) ;

-- lists.sent
SELECT b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, b.addressed_to AS addressed_to, b.subject AS subject, CASE WHEN ?3::integer <= 4096 AND b.preview IS NOT NULL THEN substr(b.preview, 1, ?3::integer) ELSE substr(b.body, 1, ?3::integer) END AS body, coalesce(b.body_bytes, octet_length(b.body)) AS body_length, b.created_at AS created_at, b.thread_id AS thread_id, b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, b.dedup_key AS dedup_key, b.sender_uid AS sender_uid, b.sender_host AS sender_host, d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, d.last_attempt_at AS last_attempt_at, d.request_state AS request_state, d.expires_at AS delivery_expires_at, (SELECT sm.schedule FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS schedule, (SELECT sm.slot FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS slot FROM beads AS b LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?1 WHERE b.sender = ?1 AND (?11::integer = 0 OR EXISTS (SELECT 1 FROM deliveries AS u WHERE u.message = b.seq AND u.read_at IS NULL AND u.archived_at IS NULL AND (u.expires_at IS NULL OR u.expires_at > ?2::bigint))) AND (?12::integer = 0 OR EXISTS (SELECT 1 FROM deliveries AS u WHERE u.message = b.seq AND u.archived_at IS NOT NULL)) AND (?2::bigint IS NULL OR true) AND (?3::integer IS NULL OR true) AND (?4::bigint IS NULL OR true) AND (?5::text IS NULL OR b.sender = ?5) AND (?6::text IS NULL OR EXISTS (SELECT 1 FROM deliveries AS r WHERE r.message = b.seq AND r.recipient = ?6)) AND (?7::text IS NULL OR strpos(?7, chr(10) || b.type || chr(10)) > 0) AND (?8::integer IS NULL OR b.priority = ?8) AND (?9::bigint IS NULL OR b.created_at >= ?9) AND (?10::bigint IS NULL OR b.created_at < ?10) AND (?13::text IS NULL OR b.thread_id = ?13) ORDER BY b.created_at DESC, b.seq DESC LIMIT CASE WHEN ?4::bigint >= 0 THEN ?4::bigint END;

-- lists.sent_count
SELECT count(*) AS total FROM beads AS b LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?1 WHERE b.sender = ?1 AND (?11::integer = 0 OR EXISTS (SELECT 1 FROM deliveries AS u WHERE u.message = b.seq AND u.read_at IS NULL AND u.archived_at IS NULL AND (u.expires_at IS NULL OR u.expires_at > ?2::bigint))) AND (?12::integer = 0 OR EXISTS (SELECT 1 FROM deliveries AS u WHERE u.message = b.seq AND u.archived_at IS NOT NULL)) AND (?2::bigint IS NULL OR true) AND (?3::integer IS NULL OR true) AND (?4::bigint IS NULL OR true) AND (?5::text IS NULL OR b.sender = ?5) AND (?6::text IS NULL OR EXISTS (SELECT 1 FROM deliveries AS r WHERE r.message = b.seq AND r.recipient = ?6)) AND (?7::text IS NULL OR strpos(?7, chr(10) || b.type || chr(10)) > 0) AND (?8::integer IS NULL OR b.priority = ?8) AND (?9::bigint IS NULL OR b.created_at >= ?9) AND (?10::bigint IS NULL OR b.created_at < ?10) AND (?13::text IS NULL OR b.thread_id = ?13) ;

-- lists.sent_summary
SELECT count(*) AS recipients, count(*) FILTER (WHERE read_at IS NOT NULL) AS read,
       count(*) FILTER (WHERE archived_at IS NOT NULL) AS archived,
       count(*) FILTER (WHERE ack_state = 'acked') AS acked,
       count(*) FILTER (WHERE ack_state = 'awaiting_ack') AS awaiting,
       count(*) FILTER (WHERE ack_state = 'escalated') AS escalated,
       count(*) FILTER (WHERE claim_until > ?2::bigint AND claimed_by IS NOT NULL) AS claimed,
       count(*) FILTER (WHERE set_aside_at IS NOT NULL AND read_at IS NULL) AS set_aside,
       count(*) FILTER (WHERE handler_attempts > 0 AND read_at IS NULL AND set_aside_at IS NULL
                          AND NOT coalesce(claim_until > ?2::bigint AND claimed_by IS NOT NULL, false))
         AS handler_failed
FROM deliveries WHERE message = ?1;

-- lists.search_hits
SELECT b.seq AS seq, -ts_rank(b.search, to_tsquery('simple', mailroom_fold(?14::text)))::float8 AS score FROM beads AS b LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?1 WHERE b.search @@ to_tsquery('simple', mailroom_fold(?14::text)) AND (?1::text IS NULL OR b.sender = ?1 OR d.message IS NOT NULL) AND (?11::integer = 0 OR (d.message IS NOT NULL AND d.read_at IS NULL AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?2::bigint))) AND (?12::integer = 0 OR d.archived_at IS NOT NULL) AND (?2::bigint IS NULL OR true) AND (?3::integer IS NULL OR true) AND (?4::bigint IS NULL OR true) AND (?5::text IS NULL OR b.sender = ?5) AND (?6::text IS NULL OR EXISTS (SELECT 1 FROM deliveries AS r WHERE r.message = b.seq AND r.recipient = ?6)) AND (?7::text IS NULL OR strpos(?7, chr(10) || b.type || chr(10)) > 0) AND (?8::integer IS NULL OR b.priority = ?8) AND (?9::bigint IS NULL OR b.created_at >= ?9) AND (?10::bigint IS NULL OR b.created_at < ?10) AND (?13::text IS NULL OR b.thread_id = ?13) ;

-- lists.message_by_seq
SELECT b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, b.addressed_to AS addressed_to, b.subject AS subject, CASE WHEN ?3::integer <= 4096 AND b.preview IS NOT NULL THEN substr(b.preview, 1, ?3::integer) ELSE substr(b.body, 1, ?3::integer) END AS body, coalesce(b.body_bytes, octet_length(b.body)) AS body_length, b.created_at AS created_at, b.thread_id AS thread_id, b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, b.dedup_key AS dedup_key, b.sender_uid AS sender_uid, b.sender_host AS sender_host, d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, d.last_attempt_at AS last_attempt_at, d.request_state AS request_state, d.expires_at AS delivery_expires_at, (SELECT sm.schedule FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS schedule, (SELECT sm.slot FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS slot 
FROM beads AS b LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?2
WHERE b.seq = ?1;

-- transfer.mailboxes
SELECT m.name AS name, m.registered_at AS registered_at, m.retired_at AS retired_at, p.last_seen AS last_seen
FROM mailboxes AS m LEFT JOIN mailbox_presence AS p ON p.name = m.name
ORDER BY m.name;

-- transfer.message_seqs
SELECT seq FROM beads WHERE ?1::bigint IS NULL OR created_at >= ?1 ORDER BY created_at, seq;

-- transfer.deliveries
SELECT message, recipient, kind, delivered_at, read_at, archived_at, ack_state, acked_at, attempts, last_attempt_at, next_attempt_at, acted_by, handler_attempts, retry_at, set_aside_at, request_state, request_state_at, expires_at FROM deliveries WHERE message = ?1 ORDER BY ordinal;

-- transfer.keys
SELECT k.sender AS sender, k.key AS key, k.fingerprint AS fingerprint, b.id AS message, k.created_at AS created_at FROM idempotency_keys AS k LEFT JOIN beads AS b ON b.seq = k.message WHERE ?1::bigint IS NULL OR k.created_at >= ?1 ORDER BY k.sender, k.key;

-- transfer.mailbox_exists
SELECT 1 FROM mailboxes WHERE name = ?1;

-- transfer.insert_mailbox
WITH added AS (
  INSERT INTO mailboxes (name, registered_at, retired_at) VALUES (?1, ?2::bigint, ?3::bigint) RETURNING name
)
INSERT INTO mailbox_presence (name, last_seen)
SELECT name, ?4::bigint FROM added WHERE ?4::bigint IS NOT NULL;

-- transfer.message_seq
SELECT seq FROM beads WHERE id = ?1;

-- transfer.delivery
SELECT message, recipient, kind, delivered_at, read_at, archived_at, ack_state, acked_at, attempts, last_attempt_at, next_attempt_at, acted_by, handler_attempts, retry_at, set_aside_at, request_state, request_state_at, expires_at FROM deliveries WHERE message = ?1 AND recipient = ?2;

-- transfer.insert_delivery
INSERT INTO deliveries (message, recipient, kind, priority, created_at, delivered_at, sender, expires_at,
                        read_at, archived_at, ack_state, attempts, last_attempt_at, next_attempt_at,
                        acted_by, handler_attempts, retry_at, set_aside_at, request_state, request_state_at)
SELECT b.seq, ?2::text, ?3::text, b.priority, b.created_at, ?4::bigint, b.sender,
       CASE WHEN ?17::integer <> 0 THEN ?18::bigint ELSE b.expires_at END, ?5::bigint,
       ?6::bigint, ?7::text, ?8::integer, ?9::bigint, ?10::bigint, ?11::text, ?12::integer, ?13::bigint,
       ?14::bigint, ?15::text, ?16::bigint
FROM beads AS b WHERE b.seq = ?1::bigint;

-- transfer.set_acked_at
UPDATE deliveries SET acked_at = ?3 WHERE message = ?1 AND recipient = ?2;

-- transfer.key
SELECT k.sender AS sender, k.key AS key, k.fingerprint AS fingerprint, b.id AS message, k.created_at AS created_at FROM idempotency_keys AS k LEFT JOIN beads AS b ON b.seq = k.message WHERE k.sender = ?1 AND k.key = ?2;

-- transfer.insert_key
INSERT INTO idempotency_keys (sender, key, fingerprint, message, created_at) VALUES (?1, ?2, ?3, ?4, ?5);

-- transfer.purgeable
SELECT b.seq AS seq, (SELECT count(*) FROM deliveries AS c WHERE c.message = b.seq) AS deliveries
FROM beads AS b
WHERE (b.expires_at IS NOT NULL AND b.expires_at <= ?1::bigint)
   OR (EXISTS (SELECT 1 FROM deliveries AS a WHERE a.message = b.seq)
       AND NOT EXISTS (SELECT 1 FROM deliveries AS o
                       WHERE o.message = b.seq AND (o.archived_at IS NULL OR o.archived_at > ?1::bigint)))
ORDER BY b.seq;

-- transfer.release_keys
UPDATE idempotency_keys SET message = NULL WHERE message = ?1;

-- transfer.delete_deliveries
DELETE FROM deliveries WHERE message = ?1;

-- transfer.delete_message
DELETE FROM beads WHERE seq = ?1;

-- events.lock
SELECT pg_advisory_xact_lock(7886477456661443699);

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
UPDATE deliveries SET request_state = ?3, request_state_at = ?4::bigint
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2
  AND request_state IN ('submitted', 'working', 'input_required');

-- requests.resume
UPDATE deliveries
SET request_state = 'working', request_state_at = ?3::bigint, read_at = NULL,
    expires_at = expires_at + (?3::bigint - coalesce(request_state_at, ?3::bigint))
WHERE message = (SELECT seq FROM beads WHERE id = ?1) AND recipient = ?2
  AND request_state = 'input_required';

-- requests.cancel
UPDATE deliveries SET request_state = 'canceled', request_state_at = ?3::bigint,
    expires_at = CASE WHEN expires_at IS NULL OR expires_at > ?3::bigint THEN ?3::bigint ELSE expires_at END
WHERE message = ?1 AND recipient = ?2 AND request_state IN ('submitted', 'working', 'input_required') AND (request_state = 'input_required' OR expires_at IS NULL OR expires_at > ?3::bigint);

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
WHERE s.id = ?1 FOR UPDATE OF s;

-- schedules.list
SELECT s.id AS id, s.sender AS sender, s.name AS name, s.created_at AS created_at, s.created_by AS created_by, s.rule_kind AS rule_kind, s.at_ms AS at_ms, s.every_ms AS every_ms, s.anchor AS anchor, s.cron AS cron, s.tz AS tz, s.start_at AS start_at, s.until_at AS until_at, s.catch_up AS catch_up, s.overlap AS overlap, s.to_list AS to_list, s.cc_list AS cc_list, s.subject AS subject, s.body AS body, s.priority AS priority, s.type AS type, s.ack AS ack, s.ttl_ms AS ttl_ms, s.notify AS notify, s.idempotency_key AS idempotency_key, s.next_at AS next_at, s.paused_at AS paused_at, s.ended_at AS ended_at, s.end_reason AS end_reason, s.last_run_now AS last_run_now, s.escalated AS escalated, f.slot AS last_slot, f.kind AS last_kind, f.fired_at AS last_fired_at, f.outcome AS last_outcome, f.message_id AS last_message_id, f.slot_count AS last_slot_count, f.through_slot AS last_through_slot, f.error_code AS last_error_code, f.detail AS last_detail 
FROM schedules AS s LEFT JOIN firings AS f
  ON f.schedule = s.id AND f.slot = s.last_slot AND f.kind = s.last_kind
WHERE (?1::text IS NULL OR s.sender = ?1) AND (?2::integer = 1 OR s.ended_at IS NULL)
ORDER BY s.sender, s.name, s.created_at, s.id;

-- schedules.names
SELECT name FROM schedules WHERE sender = ?1 AND ended_at IS NULL ORDER BY name;

-- schedules.due
SELECT id FROM schedules
WHERE ended_at IS NULL AND paused_at IS NULL AND next_at <= ?1::bigint AND (?2::text IS NULL OR sender = ?2)
ORDER BY next_at, id
LIMIT ?3::bigint;

-- schedules.insert_firing
INSERT INTO firings (schedule, slot, kind, fired_at, outcome, message_id, slot_count, through_slot, error_code, detail)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
ON CONFLICT (schedule, slot, kind) DO NOTHING;

-- schedules.firing
SELECT slot, kind, fired_at, outcome, message_id, slot_count, through_slot, error_code, detail FROM firings WHERE schedule = ?1 AND slot = ?2 AND kind = ?3;

-- schedules.firings
SELECT slot, kind, fired_at, outcome, message_id, slot_count, through_slot, error_code, detail FROM firings WHERE schedule = ?1
ORDER BY seq DESC LIMIT ?2::bigint;

-- schedules.all_firings
SELECT schedule, slot, kind, fired_at, outcome, message_id, slot_count, through_slot, error_code, detail FROM firings ORDER BY schedule, seq;

-- schedules.last_sent
SELECT message_id FROM firings
WHERE schedule = ?1 AND message_id IS NOT NULL AND outcome IN ('sent', 'partial')
ORDER BY seq DESC LIMIT 1;

-- schedules.prune_firings
DELETE FROM firings WHERE schedule = ?1 AND seq <= (
  SELECT seq FROM firings WHERE schedule = ?1 ORDER BY seq DESC LIMIT 1 OFFSET ?2::bigint);

-- schedules.requests
SELECT d.recipient AS recipient, d.read_at AS read_at, b.type AS type,
       coalesce(d.expires_at, b.expires_at) AS expires_at, d.request_state AS request_state,
       CASE WHEN EXISTS (SELECT 1 FROM beads AS r
                         WHERE r.thread_id = b.thread_id AND r.reply_to = b.id
                           AND r.sender = d.recipient) THEN 1 ELSE 0 END AS replied
FROM beads AS b JOIN deliveries AS d ON d.message = b.seq
WHERE b.id = ?1
ORDER BY d.ordinal;

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
SELECT d.recipient, b.id, t.target, ?2::bigint, 'pending', t.host, t.uid, t.socket, ?3::bigint, ?3::bigint, ?3::bigint
FROM beads AS b JOIN deliveries AS d ON d.message = b.seq
  JOIN wake_targets AS t ON t.mailbox = d.recipient
WHERE b.id = ?1 AND (?4::text = '' OR d.recipient = ?4)
ON CONFLICT (recipient, message, target, attempt) DO NOTHING;

-- wakes.of_message
SELECT recipient, message, target, attempt FROM wake_ledger
WHERE message = ?1 AND attempt = ?2::bigint AND outcome = 'pending' AND claimed_at IS NULL AND host = ?3 AND uid = ?4::bigint
ORDER BY recipient, target;

-- wakes.due
SELECT recipient, message, target, attempt FROM wake_ledger
WHERE host = ?1 AND uid = ?2::bigint AND ((outcome = 'pending' AND claimed_at IS NULL) OR (outcome = 'deferred' AND due_at <= ?3::bigint))
ORDER BY due_at, created_at, recipient, message, attempt LIMIT ?4::bigint;

-- wakes.give_up
UPDATE wake_ledger SET outcome = 'unreachable', claimed_at = NULL, updated_at = ?1::bigint
WHERE outcome IN ('pending', 'deferred') AND created_at < ?2::bigint AND (claimed_at IS NULL OR claimed_at < ?3::bigint)
RETURNING recipient, message, target, attempt, outcome, reason, created_at, due_at, claimed_at, updated_at, combined, combined_into, socket, host, uid;

-- wakes.row
SELECT recipient, message, target, attempt, outcome, reason, created_at, due_at, claimed_at, updated_at, combined, combined_into, socket, host, uid FROM wake_ledger WHERE recipient = ?1 AND message = ?2 AND target = ?3 AND attempt = ?4;

-- wakes.claim
UPDATE wake_ledger SET claimed_at = ?5::bigint, updated_at = ?5::bigint
WHERE recipient = ?1 AND message = ?2 AND target = ?3 AND attempt = ?4 AND claimed_at IS NULL AND (outcome = 'pending' OR (outcome = 'deferred' AND due_at <= ?5::bigint));

-- wakes.validate
SELECT b.sender AS sender, b.subject AS subject,
  CASE WHEN d.request_state = 'canceled' THEN 'canceled'
       WHEN d.archived_at IS NOT NULL THEN 'archived'
       WHEN d.expires_at IS NOT NULL AND d.expires_at <= ?3::bigint THEN 'expired'
       WHEN NOT (d.read_at IS NULL AND d.archived_at IS NULL AND (d.expires_at IS NULL OR d.expires_at > ?3::bigint)) THEN 'read'
       WHEN d.request_state IS NOT NULL AND d.request_state <> 'submitted' THEN 'not_submitted'
       ELSE '' END AS skip
FROM beads AS b JOIN deliveries AS d ON d.message = b.seq
WHERE b.id = ?1 AND d.recipient = ?2;

-- wakes.pair_insert
INSERT INTO wake_pairs (recipient, target, last_wake_at) VALUES (?1, ?2, NULL)
ON CONFLICT (recipient, target) DO NOTHING;

-- wakes.pair_take
UPDATE wake_pairs SET last_wake_at = ?3::bigint
WHERE recipient = ?1 AND target = ?2 AND (last_wake_at IS NULL OR last_wake_at < ?3::bigint - ?4::bigint);

-- wakes.pair_last
SELECT last_wake_at FROM wake_pairs WHERE recipient = ?1 AND target = ?2;

-- wakes.settle
UPDATE wake_ledger SET outcome = ?5, reason = ?6, due_at = ?7::bigint, claimed_at = NULL, updated_at = ?8::bigint
WHERE recipient = ?1 AND message = ?2 AND target = ?3 AND attempt = ?4;

-- wakes.combine
UPDATE wake_ledger SET outcome = 'combined', combined_into = ?3, updated_at = ?4::bigint
WHERE recipient = ?1 AND target = ?2 AND outcome = 'deferred' AND NOT (message = ?3 AND attempt = ?5::bigint);

-- wakes.set_combined
UPDATE wake_ledger SET combined = ?5::bigint WHERE recipient = ?1 AND message = ?2 AND target = ?3 AND attempt = ?4;

-- wakes.finish
UPDATE wake_ledger SET outcome = ?5, reason = ?6, updated_at = ?7::bigint, due_at = ?8::bigint, claimed_at = CASE WHEN ?5 = 'deferred' THEN NULL ELSE claimed_at END
WHERE recipient = ?1 AND message = ?2 AND target = ?3 AND attempt = ?4 AND outcome = 'pending' AND claimed_at IS NOT NULL;

-- wakes.ledger
SELECT recipient, message, target, attempt, outcome, reason, created_at, due_at, claimed_at, updated_at, combined, combined_into, socket, host, uid FROM wake_ledger
WHERE (?1::text = '' OR recipient = ?1)
ORDER BY updated_at DESC, created_at DESC, recipient, message, attempt LIMIT ?2::bigint;

-- wakes.ready
SELECT 1 AS ready FROM wake_ledger AS l
  LEFT JOIN wake_pairs AS p ON p.recipient = l.recipient AND p.target = l.target
WHERE l.recipient = ?1 AND l.message = ?2 AND l.attempt = 0 AND l.outcome = 'pending' AND l.claimed_at IS NULL AND l.host = ?3 AND l.uid = ?4::bigint AND (p.last_wake_at IS NULL OR p.last_wake_at < ?5::bigint - ?6::bigint)
LIMIT 1;

-- wakes.prune
DELETE FROM wake_ledger WHERE outcome NOT IN ('pending', 'deferred') AND updated_at < ?1::bigint
  AND EXISTS (SELECT 1 FROM wake_ledger AS n WHERE n.recipient = wake_ledger.recipient AND n.outcome NOT IN ('pending', 'deferred') AND n.updated_at > wake_ledger.updated_at);

-- wakes.all_rows
SELECT recipient, message, target, attempt, outcome, reason, created_at, due_at, claimed_at, updated_at, combined, combined_into, socket, host, uid FROM wake_ledger ORDER BY recipient, message, target, attempt;

-- wakes.import_target
INSERT INTO wake_targets (mailbox, target, host, uid, socket, set_at, hook_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7);

-- wakes.import_row
INSERT INTO wake_ledger (recipient, message, target, attempt, outcome, reason, created_at, due_at, claimed_at, updated_at, combined, combined_into, socket, host, uid)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15);

-- schema.v1
CREATE TABLE mailroom_schema (
  singleton    BOOLEAN PRIMARY KEY DEFAULT true CHECK (singleton),
  version      INTEGER NOT NULL,
  min_version  INTEGER NOT NULL,
  min_mailroom TEXT COLLATE "C" NOT NULL,
  migrated_at  TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
  migrated_by  TEXT COLLATE "C" NOT NULL
);

-- Latin letters without their diacritics (é -> e), as the bead store's FTS5 index folds them; applied
-- to the indexed text and to every search query, so `cafe` finds café and `café` finds cafe.
CREATE FUNCTION mailroom_fold(t TEXT) RETURNS TEXT
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
RETURN translate(t, 'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžøØłŁđĐ',
                    'AAAAAACEEEEIIIINOOOOOUUUUYaaaaaaceeeeiiiinooooouuuuyyAaAaAaCcCcCcCcDdEeEeEeEeEeGgGgGgGgHhIiIiIiIiIJjKkLlLlLlNnNnNnOoOoOoRrRrRrSsSsSsSsTtTtUuUuUuUuUuUuWwYyYZzZzZzoOlLdD');

-- Subject, sender and body as search text (folded). A body that PostgreSQL text cannot hold (not UTF-8, or
-- with NUL bytes) is searched by its ASCII words; a body too large for one tsvector (1 MB) by its
-- first 100000 characters.
CREATE FUNCTION mailroom_search_vector(subject TEXT, sender TEXT, body BYTEA) RETURNS tsvector
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $fn$
DECLARE
  body_text TEXT;
  head tsvector := setweight(to_tsvector('simple', mailroom_fold(subject)), 'A')
                   || setweight(to_tsvector('simple', translate(sender, '/', ' ')), 'B');
BEGIN
  BEGIN
    body_text := convert_from(body, 'UTF8');
  EXCEPTION WHEN character_not_in_repertoire OR untranslatable_character THEN
    body_text := replace(regexp_replace(encode(body, 'escape'), '\\[0-7]{3}', ' ', 'g'), '\\', '\');
  END;
  BEGIN
    RETURN head || to_tsvector('simple', mailroom_fold(body_text));
  EXCEPTION WHEN program_limit_exceeded THEN
    RETURN head || to_tsvector('simple', mailroom_fold(left(body_text, 100000)));
  END;
END
$fn$;

CREATE TABLE beads (
  seq            BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  id             TEXT COLLATE "C" NOT NULL UNIQUE,
  kind           TEXT COLLATE "C" NOT NULL DEFAULT 'message',
  status         TEXT COLLATE "C" NOT NULL DEFAULT 'open',
  sender         TEXT COLLATE "C" NOT NULL,
  to_list        TEXT COLLATE "C" NOT NULL DEFAULT '',
  cc_list        TEXT COLLATE "C" NOT NULL DEFAULT '',
  subject        TEXT COLLATE "C" NOT NULL,
  body           BYTEA NOT NULL,
  created_at     BIGINT NOT NULL,
  thread_id      TEXT COLLATE "C" NOT NULL,
  reply_to       TEXT COLLATE "C",
  priority       INTEGER NOT NULL CHECK (priority BETWEEN 0 AND 4),
  type           TEXT COLLATE "C" NOT NULL,
  sender_uid     BIGINT NOT NULL,
  sender_host    TEXT COLLATE "C" NOT NULL,
  addressed_to   TEXT COLLATE "C" NOT NULL DEFAULT '',
  trace_id       TEXT COLLATE "C" NOT NULL DEFAULT '',
  span_id        TEXT COLLATE "C" NOT NULL DEFAULT '',
  parent_span_id TEXT COLLATE "C",
  expires_at     BIGINT,
  search         tsvector GENERATED ALWAYS AS (mailroom_search_vector(subject, sender, body)) STORED
);
CREATE INDEX beads_thread ON beads (thread_id, created_at, seq);
CREATE INDEX beads_sender ON beads (sender, created_at, seq);
CREATE INDEX beads_trace ON beads (trace_id, created_at, seq);
CREATE INDEX beads_reply_to ON beads (reply_to) WHERE reply_to IS NOT NULL;
CREATE INDEX beads_created ON beads (created_at, seq);
CREATE INDEX beads_expires ON beads (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX beads_search ON beads USING gin (search);

-- ordinal keeps the order deliveries were stored in (SQLite's rowid), which status shows.
CREATE TABLE deliveries (
  message          BIGINT NOT NULL REFERENCES beads (seq),
  recipient        TEXT COLLATE "C" NOT NULL,
  kind             TEXT COLLATE "C" NOT NULL CHECK (kind IN ('to', 'cc')),
  priority         INTEGER NOT NULL,
  created_at       BIGINT NOT NULL,
  delivered_at     BIGINT NOT NULL,
  read_at          BIGINT,
  archived_at      BIGINT,
  sender           TEXT COLLATE "C" NOT NULL DEFAULT '',
  expires_at       BIGINT,
  ack_state        TEXT COLLATE "C" NOT NULL DEFAULT 'none'
                   CHECK (ack_state IN ('none', 'awaiting_ack', 'acked', 'escalated')),
  acked_at         BIGINT,
  attempts         INTEGER NOT NULL DEFAULT 0,
  last_attempt_at  BIGINT,
  next_attempt_at  BIGINT,
  acted_by         TEXT COLLATE "C",
  claim_token      TEXT COLLATE "C",
  claimed_by       TEXT COLLATE "C",
  claim_until      BIGINT,
  handler_attempts INTEGER NOT NULL DEFAULT 0,
  retry_at         BIGINT,
  set_aside_at     BIGINT,
  ordinal          BIGINT GENERATED BY DEFAULT AS IDENTITY,
  PRIMARY KEY (message, recipient)
);
-- Inbox order is priority, then arrival (created_at, then seq). The INCLUDE columns make inbox,
-- check and count index-only scans of the caller's open deliveries.
CREATE INDEX deliveries_unread ON deliveries (recipient, priority, created_at, message) INCLUDE (expires_at)
  WHERE read_at IS NULL AND archived_at IS NULL;
CREATE INDEX deliveries_open ON deliveries (recipient, priority, created_at, message) INCLUDE (read_at, expires_at)
  WHERE archived_at IS NULL;
CREATE INDEX deliveries_archived ON deliveries (recipient, priority, created_at, message)
  WHERE archived_at IS NOT NULL;
CREATE INDEX deliveries_recipient ON deliveries (recipient, created_at, message);
CREATE INDEX deliveries_expiring ON deliveries (recipient, expires_at)
  WHERE expires_at IS NOT NULL AND read_at IS NULL AND archived_at IS NULL;
CREATE INDEX deliveries_pending ON deliveries (sender, recipient, created_at)
  WHERE ack_state = 'awaiting_ack';
CREATE INDEX deliveries_escalated ON deliveries (sender, recipient) WHERE ack_state = 'escalated';
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE ack_state = 'awaiting_ack';
CREATE INDEX deliveries_claimable ON deliveries (recipient, priority, created_at, message)
  WHERE read_at IS NULL AND archived_at IS NULL AND set_aside_at IS NULL;
-- Per pair of mailboxes: the last send (max created_at) and the last ack (max acked_at).
CREATE INDEX deliveries_pair_sent ON deliveries (sender, recipient, created_at);
CREATE INDEX deliveries_pair_acked ON deliveries (sender, recipient, acked_at) WHERE acked_at IS NOT NULL;

CREATE TABLE mailboxes (
  name          TEXT COLLATE "C" PRIMARY KEY,
  registered_at BIGINT NOT NULL,
  retired_at    BIGINT
);

CREATE TABLE mailbox_presence (
  name      TEXT COLLATE "C" PRIMARY KEY,
  last_seen BIGINT NOT NULL
);

CREATE TABLE idempotency_keys (
  sender      TEXT COLLATE "C" NOT NULL,
  key         TEXT COLLATE "C" NOT NULL,
  fingerprint TEXT COLLATE "C" NOT NULL,
  message     BIGINT REFERENCES beads (seq) ON DELETE SET NULL, -- NULL once purged: the key stays
  created_at  BIGINT NOT NULL,
  UNIQUE (sender, key)
);
CREATE INDEX idempotency_keys_message ON idempotency_keys (message) WHERE message IS NOT NULL;

CREATE TABLE peer_pairs (
  sender    TEXT COLLATE "C" NOT NULL,
  recipient TEXT COLLATE "C" NOT NULL,
  PRIMARY KEY (sender, recipient)
);
CREATE INDEX peer_pairs_recipient ON peer_pairs (recipient, sender);
CREATE FUNCTION mailroom_record_pair() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO peer_pairs (sender, recipient) VALUES (NEW.sender, NEW.recipient) ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$fn$;
CREATE TRIGGER deliveries_pair AFTER INSERT ON deliveries
  FOR EACH ROW EXECUTE FUNCTION mailroom_record_pair();
;

-- schema.v2
ALTER TABLE mailbox_presence ADD COLUMN IF NOT EXISTS seen_via TEXT COLLATE "C";
;

-- schema.v3
ALTER TABLE beads ADD COLUMN IF NOT EXISTS body_bytes BIGINT;
ALTER TABLE beads ADD COLUMN IF NOT EXISTS preview BYTEA;
;

-- schema.v4
CREATE INDEX IF NOT EXISTS deliveries_awaiting ON deliveries (recipient, created_at, message) INCLUDE (expires_at)
  WHERE ack_state IN ('awaiting_ack', 'escalated') AND read_at IS NULL AND archived_at IS NULL;
;

-- schema.v5
CREATE TABLE IF NOT EXISTS events (
  seq        BIGINT GENERATED ALWAYS AS IDENTITY (CACHE 1) PRIMARY KEY,
  at         BIGINT NOT NULL,
  type       TEXT COLLATE "C" NOT NULL,
  message_id TEXT COLLATE "C" NOT NULL,
  mailbox    TEXT COLLATE "C" NOT NULL,
  actor      TEXT COLLATE "C" NOT NULL
);
CREATE TABLE IF NOT EXISTS events_pruned (
  singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
  through   BIGINT NOT NULL
);
INSERT INTO events_pruned (singleton, through) VALUES (1, 0) ON CONFLICT DO NOTHING;
;

-- schema.v6
ALTER TABLE deliveries ADD COLUMN IF NOT EXISTS request_state TEXT COLLATE "C"
  CHECK (request_state IN ('submitted', 'working', 'input_required', 'completed', 'failed', 'rejected',
                           'canceled'));
ALTER TABLE deliveries ADD COLUMN IF NOT EXISTS request_state_at BIGINT;
UPDATE deliveries SET request_state = CASE
    WHEN set_aside_at IS NOT NULL THEN 'failed'
    WHEN read_at IS NOT NULL OR claim_token IS NOT NULL THEN 'working'
    ELSE 'submitted' END
WHERE request_state IS NULL AND message IN (SELECT seq FROM beads WHERE type IN ('task_request', 'cron_task'));
UPDATE deliveries AS d SET request_state = 'completed'
FROM beads AS r JOIN beads AS o ON o.id = r.reply_to
WHERE r.reply_to IS NOT NULL AND d.message = o.seq AND d.recipient = r.sender
  AND d.request_state IN ('submitted', 'working');
;

-- schema.v7
ALTER TABLE beads ADD COLUMN IF NOT EXISTS dedup_key TEXT COLLATE "C";
CREATE INDEX IF NOT EXISTS beads_dedup ON beads (sender, dedup_key, seq) WHERE dedup_key IS NOT NULL;
;

-- schema.v8
CREATE TABLE IF NOT EXISTS schedules (
  id              TEXT COLLATE "C" PRIMARY KEY,
  sender          TEXT COLLATE "C" NOT NULL,
  name            TEXT COLLATE "C" NOT NULL,
  created_at      BIGINT NOT NULL,
  created_by      TEXT COLLATE "C" NOT NULL,
  rule_kind       TEXT COLLATE "C" NOT NULL CHECK (rule_kind IN ('at', 'every', 'cron')),
  at_ms           BIGINT,
  every_ms        BIGINT,
  anchor          BIGINT,
  cron            TEXT COLLATE "C",
  tz              TEXT COLLATE "C" NOT NULL,
  start_at        BIGINT,
  until_at        BIGINT,
  catch_up        TEXT COLLATE "C" NOT NULL,
  overlap         TEXT COLLATE "C" NOT NULL,
  to_list         TEXT COLLATE "C" NOT NULL,
  cc_list         TEXT COLLATE "C" NOT NULL,
  subject         TEXT COLLATE "C",
  body            BYTEA NOT NULL,
  priority        INTEGER NOT NULL,
  type            TEXT COLLATE "C" NOT NULL,
  ack             INTEGER NOT NULL,
  ttl_ms          BIGINT,
  notify          INTEGER NOT NULL,
  idempotency_key TEXT COLLATE "C",
  next_at         BIGINT,
  paused_at       BIGINT,
  ended_at        BIGINT,
  end_reason      TEXT COLLATE "C",
  last_run_now    BIGINT,
  escalated       INTEGER NOT NULL DEFAULT 0,
  last_slot       BIGINT,
  last_kind       TEXT COLLATE "C"
);
CREATE UNIQUE INDEX IF NOT EXISTS schedules_live_name ON schedules (sender, name) WHERE ended_at IS NULL;
CREATE UNIQUE INDEX IF NOT EXISTS schedules_key ON schedules (sender, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS schedules_due ON schedules (next_at) WHERE ended_at IS NULL AND paused_at IS NULL;

CREATE TABLE IF NOT EXISTS firings (
  seq          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  schedule     TEXT COLLATE "C" NOT NULL REFERENCES schedules (id),
  slot         BIGINT NOT NULL,
  kind         TEXT COLLATE "C" NOT NULL CHECK (kind IN ('slot', 'run_now')),
  fired_at     BIGINT NOT NULL,
  outcome      TEXT COLLATE "C" NOT NULL,
  message_id   TEXT COLLATE "C",
  slot_count   BIGINT NOT NULL DEFAULT 1,
  through_slot BIGINT,
  error_code   TEXT COLLATE "C" NOT NULL DEFAULT '',
  detail       TEXT COLLATE "C" NOT NULL DEFAULT '',
  UNIQUE (schedule, slot, kind)
);
CREATE INDEX IF NOT EXISTS firings_history ON firings (schedule, seq);

CREATE TABLE IF NOT EXISTS scheduled_messages (
  message  BIGINT PRIMARY KEY REFERENCES beads (seq) ON DELETE CASCADE,
  schedule TEXT COLLATE "C" NOT NULL,
  slot     BIGINT NOT NULL
);

CREATE TABLE IF NOT EXISTS firers (
  host    TEXT COLLATE "C" NOT NULL,
  pid     BIGINT NOT NULL,
  kind    TEXT COLLATE "C" NOT NULL,
  beat_at BIGINT NOT NULL,
  PRIMARY KEY (host, pid)
);
;

-- schema.v9
CREATE TABLE IF NOT EXISTS wake_targets (
  mailbox TEXT COLLATE "C" PRIMARY KEY,
  target  TEXT COLLATE "C" NOT NULL,
  host    TEXT COLLATE "C" NOT NULL,
  uid     BIGINT NOT NULL,
  socket  TEXT COLLATE "C" NOT NULL DEFAULT '',
  set_at  BIGINT NOT NULL,
  hook_at BIGINT
);

CREATE TABLE IF NOT EXISTS wake_ledger (
  recipient     TEXT COLLATE "C" NOT NULL,
  message       TEXT COLLATE "C" NOT NULL,
  target        TEXT COLLATE "C" NOT NULL,
  attempt       BIGINT NOT NULL,
  outcome       TEXT COLLATE "C" NOT NULL CHECK (outcome IN ('pending', 'sent', 'failed', 'deferred',
                                                             'combined', 'skipped', 'unreachable')),
  reason        TEXT COLLATE "C" NOT NULL DEFAULT '',
  host          TEXT COLLATE "C" NOT NULL,
  uid           BIGINT NOT NULL,
  socket        TEXT COLLATE "C" NOT NULL DEFAULT '',
  created_at    BIGINT NOT NULL,
  due_at        BIGINT NOT NULL,
  claimed_at    BIGINT,
  updated_at    BIGINT NOT NULL,
  combined      BIGINT NOT NULL DEFAULT 0,
  combined_into TEXT COLLATE "C",
  PRIMARY KEY (recipient, message, target, attempt)
);
CREATE INDEX IF NOT EXISTS wake_ledger_due ON wake_ledger (outcome, due_at);
CREATE INDEX IF NOT EXISTS wake_ledger_newest ON wake_ledger (recipient, updated_at);

CREATE TABLE IF NOT EXISTS wake_pairs (
  recipient    TEXT COLLATE "C" NOT NULL,
  target       TEXT COLLATE "C" NOT NULL,
  last_wake_at BIGINT,
  PRIMARY KEY (recipient, target)
);
;

-- schema.v10
DROP INDEX IF EXISTS deliveries_awaiting;
CREATE INDEX IF NOT EXISTS deliveries_owed_unread ON deliveries (recipient, created_at, message)
  INCLUDE (priority, expires_at, request_state, ack_state, read_at, archived_at)
  WHERE read_at IS NULL AND archived_at IS NULL
    AND (request_state IN ('submitted', 'working') OR (request_state IS NULL AND ack_state IN ('awaiting_ack', 'escalated')));
;
