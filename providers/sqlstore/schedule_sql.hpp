#pragma once

// The SQL of schedules and firings (queries.hpp, ScheduleQueries), written once for both engines
// as macros each engine expands with its tokens (dialect_sql.hpp's convention): `P(n, type)` a
// parameter PostgreSQL must see typed, `lock` what locks a selected schedule row in a write
// transaction (PostgreSQL: FOR UPDATE OF s; SQLite: nothing, BEGIN IMMEDIATE holds the store),
// `position` the deliveries' stored order. Include only from the engines' sql*.cpp files.
//
// Tables (both schemas): schedules (one row per schedule; id is "sch-<16 hex>", never reused;
// at most one live row per (sender, name)), firings (seq, then (schedule, slot, kind) unique:
// the key that makes a slot fire once), scheduled_messages (message seq -> schedule name and
// slot, for mail::Message::schedule/slot) and firers (one heartbeat row per host and pid).

// clang-format off

// The columns a schedule's row changes after it is made, in bind order (schedules.cpp binds them
// in this order from a given first parameter).
#define MR_SQL_SCHEDULE_CHANGING_COLUMNS                                                              \
  "rule_kind, at_ms, every_ms, anchor, cron, tz, start_at, until_at, catch_up, overlap, to_list, cc_list, "  \
  "subject, body, priority, type, ack, ttl_ms, notify, idempotency_key, next_at, paused_at, ended_at, "      \
  "end_reason, last_run_now, escalated, last_slot, last_kind"
inline constexpr int k_schedule_changing_columns = 28;

#define MR_SQL_SCHEDULE_COLUMNS                                                                              \
  "s.id AS id, s.sender AS sender, s.name AS name, s.created_at AS created_at, s.created_by AS created_by, " \
  "s.rule_kind AS rule_kind, s.at_ms AS at_ms, s.every_ms AS every_ms, s.anchor AS anchor, s.cron AS cron, " \
  "s.tz AS tz, s.start_at AS start_at, s.until_at AS until_at, s.catch_up AS catch_up, "                     \
  "s.overlap AS overlap, s.to_list AS to_list, s.cc_list AS cc_list, s.subject AS subject, s.body AS body, " \
  "s.priority AS priority, s.type AS type, s.ack AS ack, s.ttl_ms AS ttl_ms, s.notify AS notify, "           \
  "s.idempotency_key AS idempotency_key, s.next_at AS next_at, s.paused_at AS paused_at, "                   \
  "s.ended_at AS ended_at, s.end_reason AS end_reason, s.last_run_now AS last_run_now, "                     \
  "s.escalated AS escalated, f.slot AS last_slot, f.kind AS last_kind, f.fired_at AS last_fired_at, "        \
  "f.outcome AS last_outcome, f.message_id AS last_message_id, f.slot_count AS last_slot_count, "            \
  "f.through_slot AS last_through_slot, f.error_code AS last_error_code, f.detail AS last_detail "           \
  "\nFROM schedules AS s LEFT JOIN firings AS f"                                                             \
  "\n  ON f.schedule = s.id AND f.slot = s.last_slot AND f.kind = s.last_kind"

#define MR_SQL_FIRING_COLUMNS                                                                                \
  "slot, kind, fired_at, outcome, message_id, slot_count, through_slot, error_code, detail"

#define MR_SQL_SCHEDULE_QUERIES(P, lock, position)                                                           \
  sqlstore::ScheduleQueries {                                                                                \
    .insert =                                                                                                \
      "\nINSERT INTO schedules (id, sender, name, created_at, created_by, "                                   \
      MR_SQL_SCHEDULE_CHANGING_COLUMNS ")"                                                                \
      "\nVALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20,"  \
      " ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33)",                                   \
    .update =                                                                                                \
      "\nUPDATE schedules SET (" MR_SQL_SCHEDULE_CHANGING_COLUMNS ") ="                                  \
      "\n  (?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21,"     \
      " ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29)"                                                             \
      "\nWHERE id = ?1",                                                                                     \
    .by_name =                                                                                               \
      "\nSELECT " MR_SQL_SCHEDULE_COLUMNS                                                                   \
      "\nWHERE s.sender = ?1 AND s.name = ?2"                                                                \
      "\nORDER BY CASE WHEN s.ended_at IS NULL THEN 0 ELSE 1 END, s.created_at DESC, s.id"                   \
      "\nLIMIT 1",                                                                                           \
    .by_key =                                                                                                \
      "\nSELECT " MR_SQL_SCHEDULE_COLUMNS                                                                   \
      "\nWHERE s.sender = ?1 AND s.idempotency_key = ?2",                                                    \
    .by_id =                                                                                                 \
      "\nSELECT " MR_SQL_SCHEDULE_COLUMNS                                                                   \
      "\nWHERE s.id = ?1 " lock,                                                                             \
    .list =                                                                                                  \
      "\nSELECT " MR_SQL_SCHEDULE_COLUMNS                                                                   \
      "\nWHERE (" P("?1", "text") " IS NULL OR s.sender = ?1)"                                                \
      " AND (" P("?2", "integer") " = 1 OR s.ended_at IS NULL)"                                              \
      "\nORDER BY s.sender, s.name, s.created_at, s.id",                                                     \
    .names = "\nSELECT name FROM schedules WHERE sender = ?1 AND ended_at IS NULL ORDER BY name",            \
    .due =                                                                                                   \
      "\nSELECT id FROM schedules"                                                                           \
      "\nWHERE ended_at IS NULL AND paused_at IS NULL AND next_at <= " P("?1", "bigint")                      \
      " AND (" P("?2", "text") " IS NULL OR sender = ?2)"                                                     \
      "\nORDER BY next_at, id"                                                                               \
      "\nLIMIT " P("?3", "bigint"),                                                                          \
    .insert_firing =                                                                                         \
      "\nINSERT INTO firings (schedule, " MR_SQL_FIRING_COLUMNS ")"                                          \
      "\nVALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"                                                   \
      "\nON CONFLICT (schedule, slot, kind) DO NOTHING",                                                     \
    .firing =                                                                                                \
      "\nSELECT " MR_SQL_FIRING_COLUMNS " FROM firings WHERE schedule = ?1 AND slot = ?2 AND kind = ?3",     \
    .firings =                                                                                               \
      "\nSELECT " MR_SQL_FIRING_COLUMNS " FROM firings WHERE schedule = ?1"                                  \
      "\nORDER BY seq DESC LIMIT " P("?2", "bigint"),                                                        \
    .all_firings =                                                                                           \
      "\nSELECT schedule, " MR_SQL_FIRING_COLUMNS " FROM firings ORDER BY schedule, seq",                    \
    .last_sent =                                                                                             \
      "\nSELECT message_id FROM firings"                                                                     \
      "\nWHERE schedule = ?1 AND message_id IS NOT NULL AND outcome IN ('sent', 'partial')"                  \
      "\nORDER BY seq DESC LIMIT 1",                                                                         \
    .prune_firings =                                                                                         \
      "\nDELETE FROM firings WHERE schedule = ?1 AND seq <= ("                                               \
      "\n  SELECT seq FROM firings WHERE schedule = ?1 ORDER BY seq DESC LIMIT 1 OFFSET " P("?2", "bigint")   \
      ")",                                                                                                   \
    .requests =                                                                                              \
      "\nSELECT d.recipient AS recipient, d.read_at AS read_at, b.type AS type,"                             \
      "\n       coalesce(d.expires_at, b.expires_at) AS expires_at, d.request_state AS request_state,"       \
      "\n       CASE WHEN EXISTS (SELECT 1 FROM beads AS r"                                                  \
      "\n                         WHERE r.thread_id = b.thread_id AND r.reply_to = b.id"                     \
      "\n                           AND r.sender = d.recipient) THEN 1 ELSE 0 END AS replied"                \
      "\nFROM beads AS b JOIN deliveries AS d ON d.message = b.seq"                                          \
      "\nWHERE b.id = ?1"                                                                                    \
      "\nORDER BY d." position,                                                                              \
    .insert_scheduled_message =                                                                              \
      "\nINSERT INTO scheduled_messages (message, schedule, slot) VALUES (?1, ?2, ?3)",                      \
    .beat =                                                                                                  \
      "\nINSERT INTO firers (host, pid, kind, beat_at) VALUES (?1, ?2, ?3, ?4)"                              \
      "\nON CONFLICT (host, pid) DO UPDATE SET kind = excluded.kind, beat_at = excluded.beat_at",            \
    .prune_beats = "\nDELETE FROM firers WHERE beat_at < ?1",                                                \
    .firer_status =                                                                                          \
      "\nSELECT (SELECT max(beat_at) FROM firers) AS last_beat,"                                             \
      "\n       (SELECT min(next_at) FROM schedules WHERE ended_at IS NULL AND paused_at IS NULL) AS next_due", \
  }

// clang-format on
