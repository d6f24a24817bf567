#pragma once

// The mail rules as SQL text, written once for both engines: the unread rule, inbox order and the
// message columns (queries.hpp). Every statement of providers/beads/sql*.cpp and
// providers/postgres/sql*.cpp that applies one of them splices it from here; `make check`
// (scripts/check-sql-rules.sh, CTest `layering`) fails when one is spelled out anywhere else.
// They are macros because the statements are string literals joined at compile time. Include only
// from the engines' sql*.cpp files.
//
// `d` is a column prefix ("d." for an alias, "" for the bare table); `now` is the parameter that
// holds now, typed as the engine needs it ("?2" for SQLite, "?2::bigint" for PostgreSQL).

#include "mail/message_fields.hpp"

// The part of the unread rule that time does not change, which the unread indexes hold: the
// delivery is neither read nor archived.
#define MR_SQL_OPEN(d) d "read_at IS NULL AND " d "archived_at IS NULL"

// The unread rule (mail/provider.hpp): the delivery is not read, not archived, and its message has
// not expired. C++ has the same rule as mail::Message::unread().
#define MR_SQL_UNREAD(d, now) MR_SQL_OPEN(d) " AND (" d "expires_at IS NULL OR " d "expires_at > " now ")"

// A live copy of a stream (send --dedup, mail/compose.hpp KeyUse): the delivery is not archived
// and its message has not expired; read or not.
#define MR_SQL_LIVE(d, now) d "archived_at IS NULL AND (" d "expires_at IS NULL OR " d "expires_at > " now ")"

// The deliveries that are neither read nor archived but have expired: what the bead store's
// counters (mailbox_counts, which cannot see time pass) count as unread beyond the rule.
// clang-format off
#define MR_SQL_UNREAD_BUT_EXPIRED(d, now)                                                                    \
  MR_SQL_OPEN(d) " AND " d "expires_at IS NOT NULL AND " d "expires_at <= " now
// clang-format on

// The life of a request (mail/request.hpp) as SQL. A delivery's request is open (mail::is_open: a
// schedule's `--overlap skip` asks it) while its request_state is submitted, working or
// input_required and, unless it waits for input (which pauses its clock), its own expires_at has
// not passed. A delivery is owed (mail::is_owed: team, trace --recent) while its request is
// submitted or working and unexpired, or, with no request, while it awaits an ack unexpired or was
// escalated.
// clang-format off
#define MR_SQL_REQUEST_OPEN_STATES "('submitted', 'working', 'input_required')"
#define MR_SQL_REQUEST_OPEN(d, now)                                                                          \
  d "request_state IN " MR_SQL_REQUEST_OPEN_STATES " AND (" d "request_state = 'input_required' OR "        \
  d "expires_at IS NULL OR " d "expires_at > " now ")"
#define MR_SQL_OWED(d, now)                                                                                  \
  "((" d "request_state IN ('submitted', 'working') AND (" d "expires_at IS NULL OR " d "expires_at > " now  \
  ")) OR (" d "request_state IS NULL AND (" d "ack_state = 'escalated' OR (" d "ack_state = 'awaiting_ack' " \
  "AND (" d "expires_at IS NULL OR " d "expires_at > " now ")))))"
// No request, or one submitted or working: what a watcher may claim and the sweep may redeliver
// (never a request that waits for input or has ended).
#define MR_SQL_REQUEST_AT_WORK(d)                                                                            \
  "(" d "request_state IS NULL OR " d "request_state IN ('submitted', 'working'))"
// The moves every read of a delivery makes (a read, a claim): submitted -> working at `now`; the
// SET terms of an UPDATE of deliveries.
#define MR_SQL_REQUEST_READ(now)                                                                             \
  "request_state_at = CASE WHEN request_state = 'submitted' THEN " now " ELSE request_state_at END, "       \
  "request_state = CASE WHEN request_state = 'submitted' THEN 'working' ELSE request_state END"
// A watcher set the delivery aside: its open request failed (SET terms).
#define MR_SQL_REQUEST_SET_ASIDE(now)                                                                        \
  "request_state_at = CASE WHEN request_state IN ('submitted', 'working') THEN " now                         \
  " ELSE request_state_at END, "                                                                             \
  "request_state = CASE WHEN request_state IN ('submitted', 'working') THEN 'failed' ELSE request_state END"
// mark-unread of a set-aside delivery submits its failed request again (SET terms).
#define MR_SQL_REQUEST_UNSET_ASIDE(now)                                                                      \
  "request_state_at = CASE WHEN set_aside_at IS NOT NULL AND request_state = 'failed' THEN " now            \
  " ELSE request_state_at END, "                                                                             \
  "request_state = CASE WHEN set_aside_at IS NOT NULL AND request_state = 'failed' THEN 'submitted' "        \
  "ELSE request_state END"
// clang-format on

// Inbox order (mail::inbox_before): urgent first, then oldest, ties in arrival order (the
// message's seq); `d` is the delivery. Every inbox index leads with these columns.
#define MR_SQL_INBOX_ORDER "ORDER BY d.priority, d.created_at, d.message "

// The states of an owed delivery (MR_SQL_OWED) without its expiry: an open request's, or, with no
// request, an awaited or escalated ack's. The predicate of the index the hook reads what the
// mailbox owes from (deliveries_owed_unread, with MR_SQL_OPEN), so the hook's statements repeat
// it word for word beside MR_SQL_OWED, as a partial index serves only a query that names its terms.
// clang-format off
#define MR_SQL_OWED_STATES(d)                                                                                \
  "(" d "request_state IN ('submitted', 'working') OR (" d "request_state IS NULL AND " d "ack_state IN "    \
  "('awaiting_ack', 'escalated')))"
// clang-format on

// The message columns of queries.hpp, `b` the message and `d` the viewer's delivery (absent for a
// non-recipient). The message's own columns come from the field table (mail/message_fields.hpp),
// one "b.<column> AS <column>, " per field; the engine supplies how it cuts the body to ?3 bytes
// and how it reads the body's length, which is all that differs.
// clang-format off
#define MR_SQL_MESSAGE_COLUMNS(body, body_length)                                                            \
  "b.seq AS seq, " MR_MESSAGE_FIELDS(MR_SQL_FIELD_COLUMN, body, body_length)                                 \
  "d.message IS NOT NULL AS has_delivery, d.read_at AS read_at, d.archived_at AS archived_at, "              \
  "coalesce(d.ack_state, 'none') AS ack_state, coalesce(d.attempts, 0) AS attempts, "                        \
  "d.last_attempt_at AS last_attempt_at, d.request_state AS request_state, "                                 \
  "d.expires_at AS delivery_expires_at, " MR_SQL_SCHEDULED_COLUMNS
// clang-format on

// The schedule and slot of a message a schedule sent (mail::Message::schedule, ::slot), from
// scheduled_messages (one row per such message, keyed by its seq): NULL for every other message.
#define MR_SQL_SCHEDULED_COLUMNS                                                                             \
  "(SELECT sm.schedule FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS schedule, "                \
  "(SELECT sm.slot FROM scheduled_messages AS sm WHERE sm.message = b.seq) AS slot "

// One row of the field table as a column of MR_SQL_MESSAGE_COLUMNS: the body is the engine's cut
// (`cut`) and its length (`length`), every other kind the column itself.
#define MR_SQL_FIELD_COLUMN(key, column, kind, member, view, cut, length)                                    \
  MR_SQL_FIELD_##kind(column, cut, length)
#define MR_SQL_FIELD_PLAIN(column) "b." #column " AS " #column ", "
#define MR_SQL_FIELD_body(column, cut, length) cut " AS " #column ", " length " AS body_length, "
#define MR_SQL_FIELD_text(column, cut, length) MR_SQL_FIELD_PLAIN(column)
#define MR_SQL_FIELD_name(column, cut, length) MR_SQL_FIELD_PLAIN(column)
#define MR_SQL_FIELD_hex(column, cut, length) MR_SQL_FIELD_PLAIN(column)
#define MR_SQL_FIELD_optional_hex(column, cut, length) MR_SQL_FIELD_PLAIN(column)
#define MR_SQL_FIELD_optional_text(column, cut, length) MR_SQL_FIELD_PLAIN(column)
#define MR_SQL_FIELD_names(column, cut, length) MR_SQL_FIELD_PLAIN(column)
#define MR_SQL_FIELD_millis(column, cut, length) MR_SQL_FIELD_PLAIN(column)
#define MR_SQL_FIELD_optional_millis(column, cut, length) MR_SQL_FIELD_PLAIN(column)
#define MR_SQL_FIELD_priority(column, cut, length) MR_SQL_FIELD_PLAIN(column)
#define MR_SQL_FIELD_integer(column, cut, length) MR_SQL_FIELD_PLAIN(column)
