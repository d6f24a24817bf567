#pragma once

// The SQL a SQL store runs, by purpose. The store logic (store.hpp) is written once; each engine
// supplies the text for its dialect (providers/beads/sql*.cpp for SQLite, providers/postgres for
// PostgreSQL). Parameters are SQLite-style ?N (PostgreSQL's wrapper translates them).
//
// Message rows: every query that returns messages binds the body prefix length as ?3 and returns
// these columns by name —
//   seq, id, sender, to_list, cc_list, addressed_to, subject, body (the first `body_bytes` bytes),
//   body_length, created_at, thread_id, reply_to, priority, type, trace_id, span_id,
//   parent_span_id, expires_at, sender_uid, sender_host,
//   has_delivery (1 when the viewing mailbox has a delivery of it), read_at, archived_at,
//   ack_state, attempts, last_attempt_at (NULL when has_delivery is 0).
// Lists of names (to_list, cc_list, addressed_to) are joined with '\n', which no address holds.
//
// The unread rule appears in the SQL as: read_at IS NULL AND archived_at IS NULL AND
// (expires_at IS NULL OR expires_at > now) on the viewer's delivery (provider.hpp).

#include <string_view>

namespace mailroom::providers::sqlstore {

struct CoreQueries {
  // --- messages as one viewer sees them ---
  std::string_view select_message;  // ?1 id, ?2 viewer, ?3 body_bytes
  std::string_view select_unread;   // ?1 mailbox, ?2 now, ?3 body_bytes, ?4 limit (-1 all):
                                    // the unread rule, in inbox order
  std::string_view select_open;     // the same parameters: every unarchived delivery
  std::string_view count;           // ?1 mailbox, ?2 now -> total, unread
  std::string_view count_unread;    // ?1 mailbox, ?2 now -> unread
  std::string_view resolve_thread;  // ?1 thread or message id -> thread_id
  std::string_view select_thread;   // ?1 thread id, ?2 viewer, ?3 body_bytes; oldest first
  std::string_view select_unread_ids; // ?1 mailbox, ?2 now -> id; inbox order

  // --- sending ---
  std::string_view select_key;      // ?1 sender, ?2 key -> fingerprint, id
  std::string_view insert_key;      // ?1 sender, ?2 key, ?3 fingerprint, ?4 seq, ?5 created_at
  std::string_view insert_message;  // ?1 id ?2 sender ?3 to_list ?4 cc_list ?5 addressed_to
                                    // ?6 subject ?7 body ?8 created_at ?9 thread_id ?10 reply_to
                                    // ?11 priority ?12 type ?13 trace_id ?14 span_id
                                    // ?15 parent_span_id ?16 expires_at ?17 sender_uid
                                    // ?18 sender_host  -> RETURNING seq
  std::string_view insert_delivery; // ?1 seq ?2 recipient ?3 kind ?4 priority ?5 created_at
                                    // ?6 sender ?7 expires_at ?8 ack_state ?9 next_attempt_at
  std::string_view id_exists;       // ?1 id -> 1
  std::string_view ack_reply;       // ?1 recipient ?2 thread ?3 original sender ?4 through
                                    // ?5 replied id ?6 now: ReplyAck (mail/ack.hpp)

  // --- per-recipient state: ?1 id, ?2 mailbox, ?3 now, ?4 acted_by ---
  std::string_view mark_read;
  std::string_view mark_unread;     // also clears the watch set-aside mark
  std::string_view archive;
  std::string_view unarchive;
  std::string_view ack;
  std::string_view delivery_of;     // ?1 id, ?2 mailbox -> seq, has_delivery
  std::string_view mark_all_read;   // ?1 mailbox, ?2 now: the unread rule's rows

  // --- registry ---
  std::string_view select_names;    // -> name, retired (0/1); sorted by name
  std::string_view select_mailbox;  // ?1 name -> retired (0/1), last_seen
  std::string_view insert_mailbox;  // ?1 name, ?2 now; nothing when it exists
  std::string_view reactivate_mailbox; // ?1 name
  std::string_view retire_mailbox;  // ?1 name, ?2 now
  std::string_view touch_mailbox;   // ?1 name, ?2 now, ?3 min interval ms: last_seen when older
  std::string_view select_agents;   // ?1 now -> name, registered_at, last_seen, unread
};

struct ViewQueries {
  std::string_view ids_with_prefix; // ?1 low, ?2 high (exclusive) -> id; at most 6
  std::string_view select_status;   // ?1 seq -> recipient, kind, delivered_at, read_at,
                                    // archived_at, ack_state, acked_at, attempts,
                                    // last_attempt_at, acted_by, expired (0/1 given ?2 now)
  std::string_view resolve_trace;   // ?1 trace or message id -> trace_id
  std::string_view select_trace;    // ?1 trace id, ?2 viewer, ?3 body_bytes; oldest first
};

// Watch claims (claims.cpp). ?3 from (NULL: anyone) and ?4 types joined by '\n' ('': any type)
// filter like ClaimRequest; "claimable" is: unread, unarchived, not set aside, unexpired at ?2 now.
struct ClaimQueries {
  std::string_view select_claimable; // ?1 mailbox ?2 now ?3 from ?4 types -> seq, id,
                                     // handler_attempts: the first claimable delivery in inbox
                                     // order whose lease is free or ran out and whose retry time
                                     // came (PostgreSQL: FOR UPDATE OF d SKIP LOCKED)
  std::string_view next_claimable;   // the same parameters -> next_at: the earliest time a
                                     // claimable delivery's lease or retry time ends (NULL: none)
  std::string_view take;             // ?1 seq ?2 mailbox ?3 token ?4 claimed_by ?5 claim_until
                                     // ?6 now: claims it and counts a handler attempt
  std::string_view renew;            // ?1 id ?2 mailbox ?3 token ?4 claim_until
  std::string_view finish_done;      // ?1 id ?2 mailbox ?3 token ?4 now: read, acked, lease cleared
                                     // -> handler_attempts
  std::string_view finish_failed;    // ?1 id ?2 mailbox ?3 token ?4 now ?5 retry_at ?6 max_attempts
                                     // -> handler_attempts, set_aside_at (NULL: not set aside)
  std::string_view finish_released;  // ?1 id ?2 mailbox ?3 token: lease cleared, the attempt taken
                                     // back -> handler_attempts
};

// Delivery health and the redelivery sweep (health.cpp, sweep.cpp).
struct HealthQueries {
  // ?1 me, ?2 now, ?3 one peer (NULL: every peer) -> peer, last_sent_at, last_acked_at,
  // last_inbound_at, last_seen_at, pending_count, oldest_pending_at (NULL when none),
  // escalated_count; every mailbox other than me that I sent mail to or received mail from, by
  // name. Served by peer_pairs and the partial indexes of pending and escalated deliveries.
  std::string_view select_peers;
  // Due deliveries (awaiting ack, not expired, next_attempt_at <= now, not acted on since the pass
  // began) with fewer than ?4 attempts: ?1 now, ?2 sender (NULL: any), ?3 pass start, ?4 max
  // attempts, ?5 limit -> message (seq), id, sender, recipient, subject, thread_id, created_at,
  // attempts; by next_attempt_at. Inside a write transaction this claims the rows (PostgreSQL:
  // FOR UPDATE OF the deliveries SKIP LOCKED).
  std::string_view select_due;
  // The (sender, recipient) pairs with due deliveries that used their attempts: ?1 now, ?2 sender
  // (NULL: any), ?3 pass start, ?4 max attempts -> sender, recipient.
  std::string_view select_due_pairs;
  // Those deliveries of one pair, claimed as select_due does: ?1 now, ?2 sender, ?3 recipient,
  // ?4 pass start, ?5 max attempts -> the columns of select_due; oldest first.
  std::string_view select_due_of_pair;
  // A redelivery, only if the delivery is still as it was read: ?1 message (seq), ?2 recipient,
  // ?3 now, ?4 next_attempt_at, ?5 attempts read. Unread and unarchived again, attempts + 1.
  std::string_view redeliver;
  // Gives up, under the same guard: ?1 message (seq), ?2 recipient, ?3 attempts read.
  std::string_view escalate;
};

struct Queries {
  CoreQueries core;
  ViewQueries views;
  ClaimQueries claims;
  HealthQueries health;
};

} // namespace mailroom::providers::sqlstore
