// The bead store's SQL for filtered lists, sent and search (SQLite). Filters are static SQL with
// nullable parameters (queries.hpp: ListQueries); each list has its own statement so that each
// reads its own index: inbox the open or the archived deliveries of the mailbox, sent the
// sender's messages by time, search the FTS5 index. sql_plan_test.cpp pins the plans.

#include "beads/sql.hpp"
#include "beads/sql_columns.hpp"
#include "sqlstore/shared_sql.hpp"
#include "sqlstore/sql_rules.hpp"

namespace mailroom::providers::beads {

namespace {

// The filters every list shares; `b` is the message.
#define MR_LIST_FILTERS                                                                                      \
  "AND (?5 IS NULL OR b.sender = ?5) "                                                                       \
  "AND (?6 IS NULL OR EXISTS (SELECT 1 FROM deliveries AS r WHERE r.message = b.seq "                        \
  "AND r.recipient = ?6)) "                                                                                  \
  "AND (?7 IS NULL OR instr(?7, char(10) || b.type || char(10)) > 0) "                                       \
  "AND (?8 IS NULL OR b.priority = ?8) "                                                                     \
  "AND (?9 IS NULL OR b.created_at >= ?9) "                                                                  \
  "AND (?10 IS NULL OR b.created_at < ?10) "                                                                 \
  "AND (?13 IS NULL OR b.thread_id = ?13) "

#define MR_INBOX_OPEN                                                                                        \
  "FROM deliveries AS d INDEXED BY deliveries_open CROSS JOIN beads AS b ON b.seq = d.message "              \
  "WHERE d.recipient = ?1 AND d.archived_at IS NULL "                                                        \
  "AND (?11 = 0 OR (" MR_SQL_UNREAD("d.", "?2") ")) " MR_LIST_FILTERS

#define MR_INBOX_ARCHIVED                                                                                    \
  "FROM deliveries AS d INDEXED BY deliveries_archived CROSS JOIN beads AS b ON b.seq = d.message "          \
  "WHERE d.recipient = ?1 AND d.archived_at IS NOT NULL AND (?11 = 0 OR d.read_at IS NULL) " MR_LIST_FILTERS

#define MR_SENT                                                                                              \
  "FROM beads AS b INDEXED BY beads_sender "                                                                 \
  "LEFT JOIN deliveries AS d ON d.message = b.seq AND d.recipient = ?1 "                                     \
  "WHERE b.sender = ?1 "                                                                                     \
  "AND (?11 = 0 OR EXISTS (SELECT 1 FROM deliveries AS u WHERE u.message = b.seq "                           \
  "AND " MR_SQL_UNREAD(                                                                                      \
      "u.", "?2") ")) "                                                                                      \
                  "AND (?12 = 0 OR EXISTS (SELECT 1 FROM deliveries AS u WHERE u.message = b.seq "           \
                  "AND u.archived_at IS NOT NULL)) " MR_LIST_FILTERS

#define MR_INBOX_ORDER MR_SQL_INBOX_ORDER "LIMIT ?4"

constexpr sqlstore::ListQueries k_lists = {
    .inbox = "SELECT " MR_MESSAGE_COLUMNS MR_INBOX_OPEN MR_INBOX_ORDER,
    .inbox_count = "SELECT count(*) AS total " MR_INBOX_OPEN,
    .inbox_archived = "SELECT " MR_MESSAGE_COLUMNS MR_INBOX_ARCHIVED MR_INBOX_ORDER,
    .inbox_archived_count = "SELECT count(*) AS total " MR_INBOX_ARCHIVED,
    .sent = "SELECT " MR_MESSAGE_COLUMNS MR_SENT "ORDER BY b.created_at DESC, b.seq DESC LIMIT ?4",
    .sent_count = "SELECT count(*) AS total " MR_SENT,

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
                   "WHERE beads_fts MATCH ?14 AND (?1 IS NULL OR b.sender = ?1 OR d.message IS NOT NULL) "
                   "AND (?11 = 0 OR (d.message IS NOT NULL AND " MR_SQL_UNREAD(
                       "d.", "?2") ")) "
                                   "AND (?12 = 0 OR d.archived_at IS NOT NULL) " MR_LIST_FILTERS,
    .message_by_seq = MR_SQL_MESSAGES_WHERE(MR_MESSAGE_COLUMNS, "seq"),

    .search_syntax = &sqlstore::k_fts5_syntax,
};

#undef MR_INBOX_ORDER
#undef MR_SENT
#undef MR_INBOX_ARCHIVED
#undef MR_INBOX_OPEN
#undef MR_LIST_FILTERS

} // namespace

const sqlstore::ListQueries& sqlite_list_queries()
{
  return k_lists;
}

} // namespace mailroom::providers::beads
