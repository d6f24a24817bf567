// The bead store's SQL for filtered lists, sent and search (SQLite). Filters are static SQL with
// nullable parameters (queries.hpp: ListQueries); each list has its own statement so that each
// reads its own index: inbox the open or the archived deliveries of the mailbox, sent the
// sender's messages by time, search the FTS5 index. sql_plan_test.cpp pins the plans.

#include "beads/sql.hpp"
#include "beads/sql_columns.hpp"
#include "sqlstore/dialect_sql.hpp"
#include "sqlstore/sql_rules.hpp"

namespace mailroom::providers::beads {

namespace {

// The bead store's tokens for the lists of sqlstore/shared_sql.hpp: each list reads its own index,
// the message after its delivery (CROSS JOIN keeps that order).
#define MR_HAS_TYPE "instr(?7, char(10) || b.type || char(10)) > 0"
#define MR_OPEN_FROM "deliveries AS d INDEXED BY deliveries_open CROSS JOIN beads AS b ON b.seq = d.message"
#define MR_ARCHIVED_FROM                                                                                     \
  "deliveries AS d INDEXED BY deliveries_archived CROSS JOIN beads AS b ON b.seq = d.message"

constexpr sqlstore::ListQueries k_lists = {
    MR_SQL_LISTS(MR_MESSAGE_COLUMNS, MR_PARAM, MR_UNUSED, MR_LIMIT, MR_HAS_TYPE, MR_OPEN_FROM,
                 MR_ARCHIVED_FROM, "beads AS b INDEXED BY beads_sender"),

    .sent_summary = R"sql(
SELECT count(*) AS recipients, coalesce(sum(read_at IS NOT NULL), 0) AS read,
       coalesce(sum(archived_at IS NOT NULL), 0) AS archived,
       coalesce(sum(ack_state = 'acked'), 0) AS acked,
       coalesce(sum(ack_state = 'awaiting_ack'), 0) AS awaiting,
       coalesce(sum(ack_state = 'escalated'), 0) AS escalated,
       coalesce(sum(claim_until > ?2 AND claimed_by IS NOT NULL), 0) AS claimed,
       coalesce(sum(set_aside_at IS NOT NULL AND read_at IS NULL), 0) AS set_aside,
       coalesce(sum(handler_attempts > 0 AND read_at IS NULL AND set_aside_at IS NULL
                    AND NOT coalesce(claim_until > ?2 AND claimed_by IS NOT NULL, 0)), 0) AS handler_failed
FROM deliveries WHERE message = ?1)sql",

    // Rank weights (fts5_rank.hpp): subject 4, body 1, sender 2 (a word in the subject says more
    // than one in the body). The FTS table is the outer loop (CROSS JOIN), so every match costs
    // one lookup of its message and one of the caller's delivery.
    .search_hits = "SELECT b.seq AS seq, mailroom_rank(beads_fts, 4.0, 1.0, 2.0) AS score "
                   "FROM beads_fts CROSS JOIN beads AS b ON b.seq = beads_fts.rowid "
                   "LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?1 "
                   "WHERE beads_fts MATCH ?14 " MR_SQL_SEARCH_FILTERS(MR_PARAM, MR_UNUSED, MR_HAS_TYPE),
    .message_by_seq = MR_SQL_MESSAGES_WHERE(MR_MESSAGE_COLUMNS, "seq"),

    .search_syntax = &sqlstore::k_fts5_syntax,
};

#undef MR_HAS_TYPE
#undef MR_OPEN_FROM
#undef MR_ARCHIVED_FROM

} // namespace

const sqlstore::ListQueries& sqlite_list_queries()
{
  return k_lists;
}

} // namespace mailroom::providers::beads
