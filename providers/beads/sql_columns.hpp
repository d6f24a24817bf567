#pragma once

// The message columns every query that returns message rows selects (queries.hpp), shared by
// sql.cpp and the per-feature sql_*.cpp files so that they cannot drift apart. Include only from
// those .cpp files.

// mail::k_preview_bytes as SQL text (sql.cpp asserts that they agree).
#define MR_PREVIEW_BYTES "4096"

// The message columns of queries.hpp; ?3 is the body prefix length. `d` is the viewer's delivery
// (absent for a non-recipient), `b` the message. A prefix up to the preview's size is cut from
// `preview` (which may end before ?3 bytes, at a character boundary), so the body itself, the last
// column (schema_v6.cpp), is not read: no page of its overflow chain is touched.
#define MR_MESSAGE_COLUMNS                                                                                   \
  "b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, "               \
  "b.addressed_to AS addressed_to, b.subject AS subject, "                                                   \
  "CASE WHEN ?3 <= " MR_PREVIEW_BYTES " THEN substr(b.preview, 1, ?3) "                                      \
  "ELSE substr(b.body, 1, ?3) END AS body, "                                                                 \
  "b.body_bytes AS body_length, b.created_at AS created_at, b.thread_id AS thread_id, "                      \
  "b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, "                 \
  "b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, "                   \
  "b.sender_uid AS sender_uid, b.sender_host AS sender_host, "                                               \
  "d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, "              \
  "coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, "                        \
  "d.last_attempt_at AS last_attempt_at "
