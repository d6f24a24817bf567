// The PostgreSQL store's SQL for filtered lists, sent and search. Filters are static SQL with
// nullable parameters (queries.hpp: ListQueries), each typed where it first appears so the
// statement prepares; every parameter a statement does not use but the caller binds is typed with
// MR_PG_UNUSED. Search reads the generated tsvector column through its GIN index (beads_search).

#include "postgres/sql.hpp"
#include "postgres/sql_columns.hpp"
#include "sqlstore/shared_sql.hpp"

namespace mailroom::providers::postgres {

namespace {

// The filters every list shares; `b` is the message.
#define MR_PG_LIST_FILTERS                                                                                   \
  "AND (?5::text IS NULL OR b.sender = ?5) "                                                                 \
  "AND (?6::text IS NULL OR EXISTS (SELECT 1 FROM deliveries AS r WHERE r.message = b.seq "                  \
  "AND r.recipient = ?6)) "                                                                                  \
  "AND (?7::text IS NULL OR strpos(?7, chr(10) || b.type || chr(10)) > 0) "                                  \
  "AND (?8::integer IS NULL OR b.priority = ?8) "                                                            \
  "AND (?9::bigint IS NULL OR b.created_at >= ?9) "                                                          \
  "AND (?10::bigint IS NULL OR b.created_at < ?10) "                                                         \
  "AND (?13::text IS NULL OR b.thread_id = ?13) "

// ?2 now, ?3 body_bytes and ?4 limit, typed for the statements that do not read them.
#define MR_PG_LIST_PARAMETERS                                                                                \
  "AND " MR_PG_UNUSED("?2", "bigint") " AND " MR_PG_UNUSED("?3", "integer") " AND " MR_PG_UNUSED(            \
      "?4", "bigint") " "

#define MR_PG_INBOX_OPEN                                                                                     \
  "FROM deliveries AS d JOIN beads AS b ON b.seq = d.message "                                               \
  "WHERE d.recipient = ?1 AND d.archived_at IS NULL "                                                        \
  "AND (?11::integer = 0 OR (" MR_PG_UNREAD(                                                                 \
      "d", "?2") ")) "                                                                                       \
                 "AND " MR_PG_UNUSED("?12", "integer") " " MR_PG_LIST_PARAMETERS MR_PG_LIST_FILTERS

#define MR_PG_INBOX_ARCHIVED                                                                                 \
  "FROM deliveries AS d JOIN beads AS b ON b.seq = d.message "                                               \
  "WHERE d.recipient = ?1 AND d.archived_at IS NOT NULL AND (?11::integer = 0 OR d.read_at IS NULL) "        \
  "AND " MR_PG_UNUSED("?12", "integer") " " MR_PG_LIST_PARAMETERS MR_PG_LIST_FILTERS

#define MR_PG_SENT                                                                                           \
  "FROM beads AS b "                                                                                         \
  "LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?1 "                                     \
  "WHERE b.sender = ?1 "                                                                                     \
  "AND (?11::integer = 0 OR EXISTS (SELECT 1 FROM deliveries AS u WHERE u.message = b.seq "                  \
  "AND " MR_PG_UNREAD(                                                                                       \
      "u", "?2") ")) "                                                                                       \
                 "AND (?12::integer = 0 OR EXISTS (SELECT 1 FROM deliveries AS u WHERE u.message = b.seq "   \
                 "AND u.archived_at IS NOT NULL)) " MR_PG_LIST_PARAMETERS MR_PG_LIST_FILTERS

#define MR_PG_INBOX_ORDER MR_SQL_INBOX_ORDER MR_PG_LIMIT("?4")

constexpr sqlstore::ListQueries k_lists = {
    .inbox = "SELECT " MR_PG_MESSAGE_COLUMNS MR_PG_INBOX_OPEN MR_PG_INBOX_ORDER,
    .inbox_count = "SELECT count(*) AS total " MR_PG_INBOX_OPEN,
    .inbox_archived = "SELECT " MR_PG_MESSAGE_COLUMNS MR_PG_INBOX_ARCHIVED MR_PG_INBOX_ORDER,
    .inbox_archived_count = "SELECT count(*) AS total " MR_PG_INBOX_ARCHIVED,
    .sent = "SELECT " MR_PG_MESSAGE_COLUMNS MR_PG_SENT
            "ORDER BY b.created_at DESC, b.seq DESC " MR_PG_LIMIT("?4"),
    .sent_count = "SELECT count(*) AS total " MR_PG_SENT,

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
                   "WHERE b.search @@ to_tsquery('simple', mailroom_fold(?14::text)) AND (?1::text IS NULL "
                   "OR b.sender = ?1 OR d.message IS NOT NULL) "
                   "AND (?11::integer = 0 OR (d.message IS NOT NULL AND " MR_PG_UNREAD(
                       "d", "?2") ")) "
                                  "AND (?12::integer = 0 OR d.archived_at IS NOT NULL) " MR_PG_LIST_PARAMETERS
                                      MR_PG_LIST_FILTERS,

    .message_by_seq = MR_SQL_MESSAGES_WHERE(MR_PG_MESSAGE_COLUMNS, "seq"),

    .search_syntax = &sqlstore::k_tsquery_syntax,
};

#undef MR_PG_INBOX_ORDER
#undef MR_PG_SENT
#undef MR_PG_INBOX_ARCHIVED
#undef MR_PG_INBOX_OPEN
#undef MR_PG_LIST_PARAMETERS
#undef MR_PG_LIST_FILTERS

} // namespace

const sqlstore::ListQueries& postgres_list_queries()
{
  return k_lists;
}

} // namespace mailroom::providers::postgres
