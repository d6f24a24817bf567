#pragma once

// The SQL of wake targets and the wake ledger (queries.hpp, WakeQueries), written once for both
// engines as a macro each engine expands with its `P(n, type)` (a parameter PostgreSQL must see
// typed; dialect_sql.hpp's convention). Include only from the engines' sql*.cpp files.
//
// Tables (both schemas, bead v13, PostgreSQL v9): wake_targets (one row per mailbox with a
// target, with the host, uid and socket it was set from and hook_at), wake_ledger (key
// (recipient, message, target, attempt)) and wake_pairs ((recipient, target) -> last_wake_at, the
// cooldown's one conditional update).

#include "sqlstore/sql_rules.hpp"

// clang-format off

#define MR_SQL_WAKE_TARGET_COLUMNS "mailbox, target, host, uid, socket, set_at, hook_at"
#define MR_SQL_WAKE_ROW_COLUMNS                                                                              \
  "recipient, message, target, attempt, outcome, reason, created_at, due_at, claimed_at, updated_at, "       \
  "combined, combined_into, socket, host, uid"
#define MR_SQL_WAKE_KEY "recipient = ?1 AND message = ?2 AND target = ?3 AND attempt = ?4"

#define MR_SQL_WAKE_QUERIES(P)                                                                               \
  sqlstore::WakeQueries {                                                                                    \
    .set_target =                                                                                            \
      "\nINSERT INTO wake_targets (mailbox, target, host, uid, socket, set_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)" \
      "\nON CONFLICT (mailbox) DO UPDATE SET target = excluded.target, host = excluded.host,"                \
      " uid = excluded.uid, socket = excluded.socket, set_at = excluded.set_at",                              \
    .remove_target = "\nDELETE FROM wake_targets WHERE mailbox = ?1",                                        \
    .target_of = "\nSELECT " MR_SQL_WAKE_TARGET_COLUMNS " FROM wake_targets WHERE mailbox = ?1",             \
    .targets = "\nSELECT " MR_SQL_WAKE_TARGET_COLUMNS " FROM wake_targets ORDER BY mailbox",                 \
    .recipients = "\nSELECT DISTINCT recipient FROM wake_ledger ORDER BY recipient",                         \
    .newest = "\nSELECT " MR_SQL_WAKE_ROW_COLUMNS " FROM wake_ledger WHERE recipient = ?1"                   \
      "\nORDER BY updated_at DESC, created_at DESC, message DESC LIMIT 1",                                   \
    .hook_ran = "\nUPDATE wake_targets SET hook_at = ?2 WHERE mailbox = ?1",                                 \
    .plan =                                                                                                  \
      "\nINSERT INTO wake_ledger (recipient, message, target, attempt, outcome, host, uid, socket,"          \
      " created_at, due_at, updated_at)"                                                                     \
      "\nSELECT d.recipient, b.id, t.target, " P("?2", "bigint") ", 'pending', t.host, t.uid, t.socket, "     \
      P("?3", "bigint") ", " P("?3", "bigint") ", " P("?3", "bigint")                                        \
      "\nFROM beads AS b JOIN deliveries AS d ON d.message = b.seq"                                          \
      "\n  JOIN wake_targets AS t ON t.mailbox = d.recipient"                                                \
      "\nWHERE b.id = ?1 AND (" P("?4", "text") " = '' OR d.recipient = ?4)"                                   \
      "\nON CONFLICT (recipient, message, target, attempt) DO NOTHING",                                      \
    .of_message =                                                                                            \
      "\nSELECT recipient, message, target, attempt FROM wake_ledger"                                        \
      "\nWHERE message = ?1 AND attempt = " P("?2", "bigint") " AND outcome = 'pending'"                      \
      " AND claimed_at IS NULL AND host = ?3 AND uid = " P("?4", "bigint")                                   \
      "\nORDER BY recipient, target",                                                                        \
    .due =                                                                                                   \
      "\nSELECT recipient, message, target, attempt FROM wake_ledger"                                        \
      "\nWHERE host = ?1 AND uid = " P("?2", "bigint")                                                        \
      " AND ((outcome = 'pending' AND claimed_at IS NULL)"                                                   \
      " OR (outcome = 'deferred' AND due_at <= " P("?3", "bigint") "))"                                       \
      "\nORDER BY due_at, created_at, recipient, message, attempt LIMIT " P("?4", "bigint"),                 \
    .give_up =                                                                                               \
      "\nUPDATE wake_ledger SET outcome = 'unreachable', claimed_at = NULL, updated_at = " P("?1", "bigint")   \
      "\nWHERE outcome IN ('pending', 'deferred') AND created_at < " P("?2", "bigint")                        \
      " AND (claimed_at IS NULL OR claimed_at < " P("?3", "bigint") ")"                                       \
      "\nRETURNING " MR_SQL_WAKE_ROW_COLUMNS,                                                                \
    .row = "\nSELECT " MR_SQL_WAKE_ROW_COLUMNS " FROM wake_ledger WHERE " MR_SQL_WAKE_KEY,                   \
    .claim =                                                                                                 \
      "\nUPDATE wake_ledger SET claimed_at = " P("?5", "bigint") ", updated_at = " P("?5", "bigint")          \
      "\nWHERE " MR_SQL_WAKE_KEY " AND claimed_at IS NULL"                                                   \
      " AND (outcome = 'pending' OR (outcome = 'deferred' AND due_at <= " P("?5", "bigint") "))",             \
    .validate =                                                                                              \
      "\nSELECT b.sender AS sender, b.subject AS subject,"                                                   \
      "\n  CASE WHEN d.request_state = 'canceled' THEN 'canceled'"                                           \
      "\n       WHEN d.archived_at IS NOT NULL THEN 'archived'"                                              \
      "\n       WHEN d.expires_at IS NOT NULL AND d.expires_at <= " P("?3", "bigint") " THEN 'expired'"       \
      "\n       WHEN NOT (" MR_SQL_UNREAD("d.", P("?3", "bigint")) ") THEN 'read'"                            \
      "\n       WHEN d.request_state IS NOT NULL AND d.request_state <> 'submitted' THEN 'not_submitted'"     \
      "\n       ELSE '' END AS skip"                                                                         \
      "\nFROM beads AS b JOIN deliveries AS d ON d.message = b.seq"                                          \
      "\nWHERE b.id = ?1 AND d.recipient = ?2",                                                              \
    .pair_insert =                                                                                           \
      "\nINSERT INTO wake_pairs (recipient, target, last_wake_at) VALUES (?1, ?2, NULL)"                     \
      "\nON CONFLICT (recipient, target) DO NOTHING",                                                        \
    .pair_take =                                                                                             \
      "\nUPDATE wake_pairs SET last_wake_at = " P("?3", "bigint")                                             \
      "\nWHERE recipient = ?1 AND target = ?2"                                                               \
      " AND (last_wake_at IS NULL OR last_wake_at < " P("?3", "bigint") " - " P("?4", "bigint") ")",          \
    .pair_last = "\nSELECT last_wake_at FROM wake_pairs WHERE recipient = ?1 AND target = ?2",               \
    .settle =                                                                                                \
      "\nUPDATE wake_ledger SET outcome = ?5, reason = ?6, due_at = " P("?7", "bigint")                       \
      ", claimed_at = NULL, updated_at = " P("?8", "bigint")                                                  \
      "\nWHERE " MR_SQL_WAKE_KEY,                                                                            \
    .combine =                                                                                               \
      "\nUPDATE wake_ledger SET outcome = 'combined', combined_into = ?3, updated_at = " P("?4", "bigint")    \
      "\nWHERE recipient = ?1 AND target = ?2 AND outcome = 'deferred'"                                      \
      " AND NOT (message = ?3 AND attempt = " P("?5", "bigint") ")",                                          \
    .set_combined =                                                                                          \
      "\nUPDATE wake_ledger SET combined = " P("?5", "bigint") " WHERE " MR_SQL_WAKE_KEY,                    \
    .finish =                                                                                                \
      "\nUPDATE wake_ledger SET outcome = ?5, reason = ?6, updated_at = " P("?7", "bigint")                   \
      ", due_at = " P("?8", "bigint") ", claimed_at = CASE WHEN ?5 = 'deferred' THEN NULL ELSE claimed_at END" \
      "\nWHERE " MR_SQL_WAKE_KEY " AND outcome = 'pending' AND claimed_at IS NOT NULL",                      \
    .ledger =                                                                                                \
      "\nSELECT " MR_SQL_WAKE_ROW_COLUMNS " FROM wake_ledger"                                                \
      "\nWHERE (" P("?1", "text") " = '' OR recipient = ?1)"                                                  \
      "\nORDER BY updated_at DESC, created_at DESC, recipient, message, attempt LIMIT " P("?2", "bigint"),   \
    .ready =                                                                                                 \
      "\nSELECT 1 AS ready FROM wake_ledger AS l"                                                             \
      "\n  LEFT JOIN wake_pairs AS p ON p.recipient = l.recipient AND p.target = l.target"                    \
      "\nWHERE l.recipient = ?1 AND l.message = ?2 AND l.attempt = 0 AND l.outcome = 'pending'"              \
      " AND l.claimed_at IS NULL AND l.host = ?3 AND l.uid = " P("?4", "bigint")                             \
      " AND (p.last_wake_at IS NULL OR p.last_wake_at < " P("?5", "bigint") " - " P("?6", "bigint") ")"        \
      "\nLIMIT 1",                                                                                            \
    .prune =                                                                                                 \
      "\nDELETE FROM wake_ledger WHERE outcome NOT IN ('pending', 'deferred')"                                \
      " AND updated_at < " P("?1", "bigint")                                                                  \
      "\n  AND EXISTS (SELECT 1 FROM wake_ledger AS n WHERE n.recipient = wake_ledger.recipient"              \
      " AND n.outcome NOT IN ('pending', 'deferred') AND n.updated_at > wake_ledger.updated_at)",                                                         \
    .all_rows =                                                                                              \
      "\nSELECT " MR_SQL_WAKE_ROW_COLUMNS " FROM wake_ledger ORDER BY recipient, message, target, attempt",  \
    .import_target =                                                                                         \
      "\nINSERT INTO wake_targets (mailbox, target, host, uid, socket, set_at, hook_at)"                      \
      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",                                                                \
    .import_row =                                                                                            \
      "\nINSERT INTO wake_ledger (" MR_SQL_WAKE_ROW_COLUMNS ")"                                              \
      "\nVALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",                         \
  }

// clang-format on
