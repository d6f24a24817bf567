#pragma once

// The message columns every query that returns message rows selects (queries.hpp), shared by
// sql.cpp and the per-feature sql_*.cpp files so that they cannot drift apart. Include only from
// those .cpp files.

// The message columns of queries.hpp; ?3 is the body prefix length. `d` is the viewer's delivery
// (absent for a non-recipient), `b` the message.
#define MR_MESSAGE_COLUMNS                                                                         \
  "b.seq AS seq, b.id AS id, b.sender AS sender, b.to_list AS to_list, b.cc_list AS cc_list, "     \
  "b.addressed_to AS addressed_to, b.subject AS subject, substr(b.body, 1, ?3) AS body, "          \
  "length(b.body) AS body_length, b.created_at AS created_at, b.thread_id AS thread_id, "         \
  "b.reply_to AS reply_to, b.priority AS priority, b.type AS type, b.trace_id AS trace_id, "      \
  "b.span_id AS span_id, b.parent_span_id AS parent_span_id, b.expires_at AS expires_at, "        \
  "b.sender_uid AS sender_uid, b.sender_host AS sender_host, "                                     \
  "d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, "   \
  "coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, "             \
  "d.last_attempt_at AS last_attempt_at "
