#pragma once

// The event log's SQL, written once for both engines (queries.hpp: EventQueries). Only the lock
// differs: SQLite serialises writers already, PostgreSQL takes a transaction advisory lock before
// a transaction's first event so that seqs are allocated in commit order (docs/store.md, "Events").

#include "sqlstore/queries.hpp"

namespace mailroom::providers::sqlstore {

constexpr EventQueries event_queries(std::string_view lock)
{
  return EventQueries{
      .lock = lock,
      .insert = "INSERT INTO events (at, type, message_id, mailbox, actor) VALUES (?1, ?2, ?3, ?4, ?5)",
      .after =
          "SELECT seq, at, type, message_id, mailbox, actor FROM events WHERE seq > ?1 ORDER BY seq LIMIT ?2",
      .pruned = "SELECT through FROM events_pruned",
      .last = "SELECT max(seq) AS seq FROM events",
      .nth_newest = "SELECT seq FROM events ORDER BY seq DESC LIMIT 1 OFFSET ?1",
      .first_recent = "SELECT seq FROM events WHERE at >= ?1 ORDER BY seq LIMIT 1",
      .prune = "DELETE FROM events WHERE seq <= ?1",
      .set_pruned = "UPDATE events_pruned SET through = ?1 WHERE through < ?1",
  };
}

} // namespace mailroom::providers::sqlstore
