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
//   ack_state, attempts, last_attempt_at, request_state, delivery_expires_at (the delivery's own
//   expiry; NULL when has_delivery is 0), schedule, slot (of a message a schedule sent; else NULL).
// Lists of names (to_list, cc_list, addressed_to) are joined with '\n', which no address holds.
//
// The unread rule (provider.hpp), inbox order and the message columns are spliced into every
// statement from sql_rules.hpp, the one place their SQL is written.

#include <string>
#include <string_view>

#include "mail/search_query.hpp"
#include "sqlstore/search_syntax.hpp"

namespace mailroom::providers::sqlstore {

struct CoreQueries {
  // --- messages as one viewer sees them ---
  std::string_view select_message;    // ?1 id, ?2 viewer, ?3 body_bytes
  std::string_view select_unread;     // ?1 mailbox, ?2 now, ?3 body_bytes, ?4 limit (-1 all):
                                      // the unread rule, in inbox order
  std::string_view select_open;       // the same parameters: every unarchived delivery
  std::string_view count;             // ?1 mailbox, ?2 now -> total, unread
  std::string_view count_unread;      // ?1 mailbox, ?2 now -> unread
  std::string_view select_awaiting;   // select_unread's parameters: the unread deliveries the
                                      // mailbox owes (MR_SQL_OWED) that are not urgent, oldest first
  std::string_view count_classes;     // ?1 mailbox, ?2 now -> urgent, owed, owed_urgent: the unread
                                      // urgent deliveries, the owed ones, the owed urgent ones
  std::string_view resolve_thread;    // ?1 thread or message id -> thread_id
  std::string_view select_thread;     // ?1 thread id, ?2 viewer, ?3 body_bytes; oldest first
  std::string_view select_unread_ids; // ?1 mailbox, ?2 now -> id; inbox order

  // --- sending ---
  std::string_view select_key;      // ?1 sender, ?2 key -> fingerprint, id (NULL: purged)
  std::string_view insert_key;      // ?1 sender, ?2 key, ?3 fingerprint, ?4 seq, ?5 created_at
  std::string_view insert_message;  // one parameter per field of mail/message_fields.hpp in
                                    // table order, then body_bytes and preview
                                    // (message_sql.hpp) -> RETURNING seq
  std::string_view insert_delivery; // ?1 seq ?2 recipient ?3 kind ?4 priority ?5 created_at
                                    // ?6 sender ?7 expires_at ?8 ack_state ?9 next_attempt_at
                                    // ?10 request_state (NULL: no reply expected)
  std::string_view id_exists;       // ?1 id -> 1
  std::string_view ack_reply;       // ?1 recipient ?2 thread ?3 original sender ?4 through
                                    // ?5 replied id ?6 now: ReplyAck (mail/ack.hpp) -> RETURNING
                                    // id of each message whose delivery it acked
  // A stream's copies (mail::KeyUse).
  std::string_view lock_stream; // ?1 recipient ?2 key: a lock on the pair held to COMMIT
                                // (PostgreSQL: a transaction advisory lock); empty when writers
                                // are serialised anyway (SQLite)
  std::string_view live_copy;   // ?1 sender ?2 key ?3 recipient ?4 now -> id: the newest message
                                // of the stream that ?3 has a live delivery of (sql_rules.hpp
                                // MR_SQL_LIVE), if any
  std::string_view supersede;   // ?1 sender ?2 key ?3 recipient ?4 now: archives ?3's unread
                                // deliveries of the stream, acted_by ?1 -> RETURNING id of each

  // --- per-recipient state: ?1 id, ?2 mailbox, ?3 now, ?4 acted_by ---
  std::string_view mark_read;
  std::string_view mark_unread; // also clears the watch set-aside mark
  std::string_view archive;
  std::string_view unarchive;
  std::string_view ack;
  // wait --read's take (SqlStore::take): hold, write the message, then mark; the hold is a lease
  std::string_view take_hold;     // ?1 id ?2 mailbox ?3 token ?4 claimed_by ?5 claim_until ?6 now
  std::string_view take_mark;     // ?1 id ?2 mailbox ?3 token ?4 now ?5 acted_by: read, let go
  std::string_view take_release;  // ?1 id ?2 mailbox ?3 token: let go, still unread
  std::string_view delivery_of;   // ?1 id, ?2 mailbox -> seq, has_delivery
  std::string_view mark_all_read; // ?1 mailbox, ?2 now: the unread rule's rows

  // --- registry ---
  std::string_view select_names;       // -> name, retired (0/1); sorted by name
  std::string_view select_mailbox;     // ?1 name -> retired (0/1), last_seen
  std::string_view insert_mailbox;     // ?1 name, ?2 now; nothing when it exists
  std::string_view reactivate_mailbox; // ?1 name
  std::string_view retire_mailbox;     // ?1 name, ?2 now
  std::string_view touch_mailbox;      // ?1 name, ?2 now, ?3 min interval ms, ?4 seen_via: when older
  // The same for a name that acts without being registered (only mail::k_human): its presence
  // row is kept apart from the mailboxes, so that it never counts as registered.
  std::string_view touch_unregistered; // ?1 name, ?2 now, ?3 min interval ms, ?4 seen_via
  std::string_view select_agents;      // ?1 now -> name, registered_at, last_seen, unread
};

struct ViewQueries {
  std::string_view ids_with_prefix;  // ?1 low, ?2 high (exclusive) -> id; at most 6
  std::string_view select_status;    // ?1 seq -> claimed_by, claim_until, then a column per
                                     // field of mail/delivery_fields.hpp (expires_at the
                                     // delivery's)
  std::string_view resolve_trace;    // ?1 trace or message id -> trace_id
  std::string_view select_trace;     // ?1 trace id, ?2 viewer, ?3 body_bytes; oldest first
  std::string_view trace_deliveries; // ?1 trace id -> id, then select_status's columns; by
                                     // message (oldest first), then stored order
  std::string_view recent_traces;    // ?1 limit, ?2 now (shared_sql.hpp)
  std::string_view open_deliveries;  // ?1 from (NULL: anyone), ?2 include read (0/1), ?3 body_bytes
                                     // -> recipient, then the message columns as it sees it;
                                     // oldest first (Views::open_deliveries)
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
  std::string_view finish_failed;    // ?1 id ?2 mailbox ?3 token ?4 retry_at: lease cleared
                                     // -> seq, handler_attempts
  std::string_view set_aside;        // ?1 seq ?2 mailbox ?3 now: set aside, lease and retry cleared
  std::string_view finish_released;  // ?1 id ?2 mailbox ?3 token: lease cleared, the attempt taken
                                     // back -> handler_attempts
};

// Delivery health and the redelivery sweep (health.cpp, sweep.cpp).
struct HealthQueries {
  // ?1 me, ?2 now, ?3 one peer (NULL: every peer), ?4 overdue before (mail::overdue_before) ->
  // peer, last_sent_at, last_acked_at, last_inbound_at, last_seen_at, pending_count,
  // oldest_pending_at (NULL when none), escalated_count, peer_owes_overdue (1 when anyone's
  // delivery to the peer is owed, MR_SQL_OWED, and escalated or created before ?4); every
  // mailbox other than me that I sent mail to or received mail from, by name. Served by
  // peer_pairs and the partial indexes of pending and escalated deliveries.
  std::string_view select_peers;
  // peers --all: ?1 now -> sender, recipient, last_sent_at, last_acked_at, pending_count,
  // oldest_pending_at (NULL when none), escalated_count, expired_count (awaiting ack, expired);
  // every pair of distinct mailboxes in peer_pairs.
  std::string_view select_pairs;
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

  // team (team.cpp), read in one snapshot. Every registered mailbox, and ?1 (human) when it is
  // not registered but has a delivery or sent mail -> name, retired_at, last_seen, seen_via.
  std::string_view team_mailboxes;
  // Per recipient: ?1 now, ?2 overdue before (mail::overdue_before) -> recipient, unread (the
  // unread rule), owed_count (MR_SQL_OWED), overdue_count (of those, escalated or created before
  // ?2), set_aside_count (set aside, unread, unarchived).
  std::string_view team_received;
  // Per sender: ?1 now -> sender, awaiting_others_count (its deliveries to others that are owed,
  // MR_SQL_OWED).
  std::string_view team_sent;
  // Leases held now: ?1 now -> recipient, id, claimed_by, claim_until; by recipient, claim_until.
  std::string_view team_claims;
};

// Views, search and filters (lists_filtered.cpp). The list statements share one set of
// parameters, NULL meaning "any":
//   ?1 mailbox, ?2 now, ?3 body_bytes, ?4 limit (-1: all), ?5 from, ?6 to (a recipient, to or cc),
//   ?7 types ('\n'-framed: "\nA\nB\n"), ?8 priority, ?9 since (created at or after), ?10 until
//   (created before), ?11 unread (0/1), ?12 archived (0/1), ?13 thread id, ?14 search match.
// Each returns message rows (the viewer is ?1); the *_count statements return `total`.
struct ListQueries {
  // The mailbox's unarchived deliveries in inbox order; ?11: only unread ones (the unread rule).
  std::string_view inbox;
  std::string_view inbox_count;
  // Its archived deliveries in inbox order; ?11: only those never read.
  std::string_view inbox_archived;
  std::string_view inbox_archived_count;
  // Messages ?1 sent, newest first; ?11: with a recipient for whom it is unread; ?12: with a
  // recipient who archived it.
  std::string_view sent;
  std::string_view sent_count;
  // ?1 seq, ?2 now -> recipients, read, archived, acked, awaiting (stored awaiting_ack),
  // escalated, claimed (a lease that holds at ?2), set_aside (set aside, unread), handler_failed
  // (unread, not set aside, not claimed, with handler attempts: a failed handler awaiting retry).
  std::string_view sent_summary;
  // Every message ?1 sent or received that matches ?14 and the filters -> seq, score (lower is a
  // better match), in no particular order; ?11/?12: ?1's own delivery is unread / archived.
  // ?1 NULL: every message that matches (a search of every mailbox; ?11/?12 then match none).
  std::string_view search_hits;
  // ?1 seq, ?2 viewer (NULL: nobody's state), ?3 body_bytes -> one message row.
  std::string_view message_by_seq;
  // The engine's query syntax (search_syntax.hpp), in which a search tree is rendered as the value
  // bound to ?14 (the bead store: an FTS5 MATCH expression in which every term is a quoted string).
  const SearchSyntax* search_syntax = nullptr;
};

// Export, import and purge (transfer.cpp).
struct TransferQueries {
  std::string_view mailboxes;         // -> name, registered_at, retired_at, last_seen; by name
  std::string_view message_seqs;      // ?1 since (NULL: all) -> seq; oldest first, ties by seq
  std::string_view deliveries;        // ?1 seq -> message, then a column per field of
                                      // mail/delivery_fields.hpp; in stored order
  std::string_view keys;              // ?1 since -> sender, key, fingerprint, message (id, NULL when
                                      // purged), created_at; by sender, then key
  std::string_view mailbox_exists;    // ?1 name -> 1
  std::string_view insert_mailbox;    // ?1 name, ?2 registered_at, ?3 retired_at, ?4 last_seen
  std::string_view message_seq;       // ?1 id -> seq
  std::string_view delivery;          // ?1 seq, ?2 recipient -> the columns of `deliveries`
  std::string_view insert_delivery;   // ?1 seq ?2 recipient ?3 kind ?4 delivered_at ?5 read_at
                                      // ?6 archived_at ?7 ack_state ?8 attempts ?9 last_attempt_at
                                      // ?10 next_attempt_at ?11 acted_by ?12 handler_attempts
                                      // ?13 retry_at ?14 set_aside_at ?15 request_state
                                      // ?16 request_state_at ?17 own expiry (0/1) ?18 expires_at;
                                      // the message's copies (priority, created_at, sender, and
                                      // expires_at without ?17) from the message
  std::string_view set_acked_at;      // ?1 seq, ?2 recipient, ?3 acked_at: an UPDATE, so what the
                                      // store keeps per pair of mailboxes sees the ack
  std::string_view key;               // ?1 sender, ?2 key -> the columns of `keys`
  std::string_view insert_key;        // ?1 sender ?2 key ?3 fingerprint ?4 seq (NULL) ?5 created_at
  std::string_view purgeable;         // ?1 cutoff -> seq, deliveries: every delivery archived
                                      // before ?1, or expired before ?1
  std::string_view release_keys;      // ?1 seq: its keys no longer name it
  std::string_view delete_deliveries; // ?1 seq
  std::string_view delete_message;    // ?1 seq
};

// The event log (events.cpp; mail/events.hpp). The same text on both engines except `lock`.
struct EventQueries {
  std::string_view lock;         // run once before a transaction's first event insert, so that
                                 // seqs are allocated in commit order (PostgreSQL: a transaction
                                 // advisory lock); empty when writers are serialised anyway (SQLite)
  std::string_view insert;       // ?1 at ?2 type ?3 message_id ?4 mailbox ?5 actor; seq allocated
  std::string_view after;        // ?1 after seq ?2 limit -> seq, at, type, message_id, mailbox,
                                 // actor; by seq
  std::string_view pruned;       // -> through: every seq at or below it was pruned
  std::string_view last;         // -> seq: the newest kept (NULL when none)
  std::string_view nth_newest;   // ?1 n -> seq: the (n+1)th newest kept (no row when fewer)
  std::string_view first_recent; // ?1 cutoff -> seq: the oldest kept with at >= ?1 (no row: none)
  std::string_view prune;        // ?1 through: deletes seq <= ?1
  std::string_view set_pruned;   // ?1 through: raises `pruned`'s value to ?1
};

// The life of a request (requests.cpp, mail/request.hpp): each an UPDATE of one delivery under
// the guard that lets a state only move forward; the change count says whether it moved.
struct RequestQueries {
  std::string_view answer; // ?1 id ?2 recipient ?3 state ?4 now: an open request -> ?3 (a reply,
                           // decline, ask or fail)
  std::string_view resume; // ?1 id ?2 recipient ?3 now: input_required -> working, unread again,
                           // expires_at pushed back by the time since request_state_at
  std::string_view cancel; // ?1 seq ?2 recipient ?3 now: an open request (mail::is_open at ?3) ->
                           // canceled, expires_at ?3 unless it ended sooner
};

// Schedules and their firings (schedules.cpp, schedule_fire.cpp; mail/facets/schedules.hpp). A
// schedule row's columns (`schedule columns`) are those of MR_SQL_SCHEDULE_COLUMNS
// (schedule_sql.hpp): the schedule's own, then its last firing's as last_*.
struct ScheduleQueries {
  std::string_view insert;                   // ?1 id ?2 sender ?3 name ?4 created_at ?5 created_by, then the
                                             // changing columns from ?6 (schedule_sql.hpp's list)
  std::string_view update;                   // ?1 id, then the changing columns from ?2
  std::string_view by_name;                  // ?1 sender ?2 name -> schedule columns: the live one first,
                                             // then the newest ended one
  std::string_view by_key;                   // ?1 sender ?2 idempotency key -> schedule columns
  std::string_view by_id;                    // ?1 id -> schedule columns; in a write transaction, locks the
                                             // row (PostgreSQL: FOR UPDATE)
  std::string_view list;                     // ?1 sender (NULL: all) ?2 ended too (0/1) -> schedule columns,
                                             // by sender, name, created_at
  std::string_view names;                    // ?1 sender -> name: its live schedules' names
  std::string_view due;                      // ?1 now ?2 sender (NULL: all) ?3 limit -> id: live, unpaused,
                                             // next_at <= now, by next_at
  std::string_view insert_firing;            // ?1 schedule ?2 slot ?3 kind ?4 fired_at ?5 outcome
                                             // ?6 message_id ?7 slot_count ?8 through_slot ?9 error_code
                                             // ?10 detail; nothing when (schedule, slot, kind) exists
  std::string_view firing;                   // ?1 schedule ?2 slot ?3 kind -> firing columns
  std::string_view firings;                  // ?1 schedule ?2 limit -> firing columns, newest first
  std::string_view all_firings;              // -> schedule, then firing columns; by schedule, oldest first
  std::string_view last_sent;                // ?1 schedule -> message_id: the newest firing that sent one
  std::string_view prune_firings;            // ?1 schedule ?2 how many to keep: deletes the older ones
  std::string_view requests;                 // ?1 message id -> recipient, read_at, replied (0/1),
                                             // expires_at (the delivery's own), request_state, type:
                                             // one row per delivery, in stored order
  std::string_view insert_scheduled_message; // ?1 message seq ?2 schedule name ?3 slot
  std::string_view beat;                     // ?1 host ?2 pid ?3 kind ?4 now: upserts the firer's heartbeat
  std::string_view prune_beats;              // ?1 before: deletes heartbeats older than it
  std::string_view firer_status;             // -> last_beat, next_due (NULL when none)
};

// Wake targets and the wake ledger (wake.cpp; mail/facets/wakes.hpp). Key parameters ?1 recipient
// ?2 message ?3 target ?4 attempt; `row columns` are MR_SQL_WAKE_ROW_COLUMNS (wake_sql.hpp),
// `target columns` MR_SQL_WAKE_TARGET_COLUMNS.
struct WakeQueries {
  std::string_view set_target;    // ?1 mailbox ?2 target ?3 host ?4 uid ?5 socket ?6 now: upsert
  std::string_view remove_target; // ?1 mailbox
  std::string_view target_of;     // ?1 mailbox -> target columns
  std::string_view targets;       // -> target columns, by mailbox
  std::string_view recipients;    // -> recipient: every mailbox with a ledger row
  std::string_view newest;        // ?1 recipient -> row columns of its newest row
  std::string_view hook_ran;      // ?1 mailbox ?2 now
  std::string_view plan;          // ?1 message id ?2 attempt ?3 now ?4 recipient ('' every one): a
                                  // pending row per recipient with a target; nothing for a key
                                  // that exists
  std::string_view of_message;    // ?1 message ?2 attempt ?3 host ?4 uid -> key: unclaimed pending
  std::string_view due;           // ?1 host ?2 uid ?3 now ?4 limit -> key: unclaimed pending, and
                                  // deferred rows due, by due_at then created_at
  std::string_view give_up;       // ?1 now ?2 created before ?3 claimed before -> RETURNING row
                                  // columns of the pending and deferred rows made unreachable
  std::string_view row;           // key -> row columns
  std::string_view claim;         // key ?5 now: claimed_at, when unclaimed and pending or due
  std::string_view validate;      // ?1 message ?2 recipient ?3 now -> sender, subject, skip ('' or
                                  // the reason the wake is skipped)
  std::string_view pair_insert;   // ?1 recipient ?2 target: the pair's row, when missing
  std::string_view pair_take;     // ?1 recipient ?2 target ?3 now ?4 cooldown: last_wake_at = now
                                  // when it is before now - cooldown (the one conditional update)
  std::string_view pair_last;     // ?1 recipient ?2 target -> last_wake_at
  std::string_view settle;        // key ?5 outcome ?6 reason ?7 due_at ?8 now: unclaims
  std::string_view combine;       // ?1 recipient ?2 target ?3 message ?4 now ?5 attempt: the pair's
                                  // other deferred rows combined into ?3
  std::string_view set_combined;  // key ?5 how many it combined
  std::string_view finish;        // key ?5 outcome ?6 detail ?7 now ?8 due_at: a claimed pending
                                  // row ends (deferred: unclaimed again, due at ?8)
  std::string_view ledger;        // ?1 recipient ('' all) ?2 limit -> row columns, newest first
  std::string_view ready;         // ?1 recipient ?2 message ?3 host ?4 uid ?5 now ?6 cooldown -> one
                                  // row when the send's unclaimed pending row (attempt 0) has a
                                  // target set from ?3/?4 and the pair was not woken within ?6
  std::string_view prune;         // ?1 ended before: deletes the rows that ended (neither pending
                                  // nor deferred) before ?1, but each recipient's newest such row
  std::string_view all_rows;      // -> row columns, by key (export)
  std::string_view import_target; // target columns in order as ?1..?7 (import)
  std::string_view import_row;    // row columns in order as ?1..?15 (import)
};

struct Queries {
  CoreQueries core;
  ViewQueries views;
  ClaimQueries claims;
  HealthQueries health;
  ListQueries lists;
  TransferQueries transfer;
  EventQueries events;
  RequestQueries requests;
  ScheduleQueries schedules;
  WakeQueries wakes;
};

} // namespace mailroom::providers::sqlstore
