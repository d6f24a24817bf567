#pragma once

// Internal to providers/postgres/sql*.cpp: the message columns of sqlstore/queries.hpp, as string
// literal pieces to splice into queries. `b` is the message, `d` the viewer's delivery (absent for
// a non-recipient); ?3 is the body prefix length. A prefix up to the preview's size is cut from
// `preview` (which may end before ?3 bytes, at a character boundary), so the body is not fetched
// (nor de-TOASTed); a row an older mailroom wrote has no preview (NULL: the additive migration,
// schema.cpp) and is cut from its body.

// mail::k_preview_bytes as SQL text (sql.cpp asserts that they agree).
#define MR_PG_PREVIEW_BYTES "4096"

#define MR_PG_MESSAGE_COLUMNS                                                                                \
  "b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, "               \
  "b.addressed_to AS addressed_to, b.subject AS subject, "                                                   \
  "CASE WHEN ?3::integer <= " MR_PG_PREVIEW_BYTES " AND b.preview IS NOT NULL "                              \
  "THEN substr(b.preview, 1, ?3::integer) ELSE substr(b.body, 1, ?3::integer) END AS body, "                 \
  "coalesce(b.body_bytes, octet_length(b.body)) AS body_length, b.created_at AS created_at, "                \
  "b.thread_id AS thread_id, "                                                                               \
  "b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, "                 \
  "b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, "                   \
  "b.sender_uid AS sender_uid, b.sender_host AS sender_host, "                                               \
  "d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, "              \
  "coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, "                        \
  "d.last_attempt_at AS last_attempt_at "

// LIMIT for a bound limit where -1 means none (PostgreSQL refuses a negative LIMIT; NULL is none).
#define MR_PG_LIMIT(n) "LIMIT CASE WHEN " n "::bigint >= 0 THEN " n "::bigint END"

// The unread rule on the viewer's delivery `d`, with now as ?N.
#define MR_PG_UNREAD(d, now)                                                                       \
  d ".read_at IS NULL AND " d ".archived_at IS NULL AND (" d ".expires_at IS NULL OR " d           \
    ".expires_at > " now "::bigint)"

// A parameter the statement does not need but the caller binds, typed so PostgreSQL can prepare
// the statement (every $N below the highest must have a type); always true.
#define MR_PG_UNUSED(n, type) "(" n "::" type " IS NULL OR true)"
