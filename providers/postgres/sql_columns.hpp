#pragma once

// Internal to providers/postgres/sql*.cpp: the message columns of sqlstore/queries.hpp, as string
// literal pieces to splice into queries. `b` is the message, `d` the viewer's delivery (absent for
// a non-recipient); ?3 is the body prefix length. A prefix up to the preview's size is cut from
// `preview` (which may end before ?3 bytes, at a character boundary), so the body is not fetched
// (nor de-TOASTed); a row an older mailroom wrote has no preview (NULL: the additive migration,
// schema.cpp) and is cut from its body.

#include "sqlstore/sql_rules.hpp"

// mail::k_preview_bytes as SQL text (sql.cpp asserts that they agree).
#define MR_PG_PREVIEW_BYTES "4096"

#define MR_PG_MESSAGE_COLUMNS                                                                                \
  MR_SQL_MESSAGE_COLUMNS("CASE WHEN ?3::integer <= " MR_PG_PREVIEW_BYTES " AND b.preview IS NOT NULL "       \
                         "THEN substr(b.preview, 1, ?3::integer) ELSE substr(b.body, 1, ?3::integer) END",   \
                         "coalesce(b.body_bytes, octet_length(b.body))")

// The engine's tokens for the statements of sqlstore/shared_sql.hpp: a parameter whose type the
// server cannot infer from where it stands is cast, and deliveries keep their stored order in
// ordinal (an identity column).
#define MR_PG_PARAM(n, type) n "::" type
#define MR_PG_DELIVERY_POSITION "ordinal"

// LIMIT for a bound limit where -1 means none (PostgreSQL refuses a negative LIMIT; NULL is none).
#define MR_PG_LIMIT(n) "LIMIT CASE WHEN " n "::bigint >= 0 THEN " n "::bigint END"

// The unread rule (sqlstore/sql_rules.hpp) on the viewer's delivery `d` (an alias), with now as ?N.
#define MR_PG_UNREAD(d, now) MR_SQL_UNREAD(d ".", now "::bigint")

// A parameter the statement does not need but the caller binds, typed so PostgreSQL can prepare
// the statement (every $N below the highest must have a type); always true. MR_PG_UNUSED_TERM is
// the same as a term to append to a WHERE (sqlstore/shared_sql.hpp's `U`).
#define MR_PG_UNUSED(n, type) "(" n "::" type " IS NULL OR true)"
#define MR_PG_UNUSED_TERM(n, type) "AND " MR_PG_UNUSED(n, type) " "
