#pragma once

// The message columns every query that returns message rows selects (queries.hpp), shared by
// sql.cpp and the per-feature sql_*.cpp files so that they cannot drift apart. Include only from
// those .cpp files.

#include "sqlstore/sql_rules.hpp"

// mail::k_preview_bytes as SQL text (sql.cpp asserts that they agree).
#define MR_PREVIEW_BYTES "4096"

// The message columns (sqlstore/sql_rules.hpp) as SQLite reads them; ?3 is the body prefix length. `d` is the
// viewer's delivery (absent for a non-recipient), `b` the message. A prefix up to the preview's size is cut
// from `preview` (which may end before ?3 bytes, at a character boundary), so the body itself, the last
// column (schema_v6.cpp), is not read: no page of its overflow chain is touched.
// The engine's tokens for the statements of sqlstore/shared_sql.hpp: a parameter needs no cast
// nor, when a statement does not read it, any mention; LIMIT -1 is none; deliveries keep their
// stored order in rowid.
#define MR_PARAM(n, type) n
#define MR_UNUSED(n, type)
#define MR_LIMIT(n) "LIMIT " n
#define MR_DELIVERY_POSITION "rowid"

#define MR_MESSAGE_COLUMNS                                                                                   \
  MR_SQL_MESSAGE_COLUMNS("CASE WHEN ?3 <= " MR_PREVIEW_BYTES " THEN substr(b.preview, 1, ?3) "               \
                         "ELSE substr(b.body, 1, ?3) END",                                                   \
                         "b.body_bytes")
