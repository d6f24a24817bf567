// The PostgreSQL store's SQL for filtered lists, sent and search. Filters are static SQL with
// nullable parameters (queries.hpp: ListQueries), each typed where it first appears so the
// statement prepares; every parameter a statement does not use but the caller binds is typed with
// MR_PG_UNUSED. Search reads the generated tsvector column through its GIN index (beads_search).

#include "postgres/sql.hpp"
#include "postgres/sql_columns.hpp"
#include "sqlstore/dialect_sql.hpp"

namespace mailroom::providers::postgres {

namespace {

// PostgreSQL's tokens for the lists of sqlstore/shared_sql.hpp: the planner picks the index.
#define MR_PG_HAS_TYPE "strpos(?7, chr(10) || b.type || chr(10)) > 0"
#define MR_PG_DELIVERIES_FROM "deliveries AS d JOIN beads AS b ON b.seq = d.message"

constexpr sqlstore::ListQueries k_lists = {
    MR_SQL_LISTS(MR_PG_MESSAGE_COLUMNS, MR_PG_PARAM, MR_PG_UNUSED_TERM, MR_PG_LIMIT, MR_PG_HAS_TYPE,
                 MR_PG_DELIVERIES_FROM, MR_PG_DELIVERIES_FROM, "beads AS b"),

    .sent_summary = R"sql(
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
FROM deliveries WHERE message = ?1)sql",

    // The query is folded as the indexed text is (schema.cpp: mailroom_fold). ts_rank's default
    // weights favour the subject (A) over the sender (B) over the body (D); the score is negated
    // because the store sorts lower-is-better (bm25's sense).
    .search_hits = "SELECT b.seq AS seq, -ts_rank(b.search, to_tsquery('simple', "
                   "mailroom_fold(?14::text)))::float8 AS score "
                   "FROM beads AS b "
                   "LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?1 "
                   "WHERE b.search @@ to_tsquery('simple', mailroom_fold(?14::text)) " MR_SQL_SEARCH_FILTERS(
                       MR_PG_PARAM, MR_PG_UNUSED_TERM, MR_PG_HAS_TYPE),

    .message_by_seq = MR_SQL_MESSAGES_WHERE(MR_PG_MESSAGE_COLUMNS, "seq"),

    .search_syntax = &sqlstore::k_tsquery_syntax,
};

#undef MR_PG_HAS_TYPE
#undef MR_PG_DELIVERIES_FROM

} // namespace

const sqlstore::ListQueries& postgres_list_queries()
{
  return k_lists;
}

} // namespace mailroom::providers::postgres
