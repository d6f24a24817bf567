#pragma once

// SQL text both engines run unchanged (plain SQL that SQLite and PostgreSQL read alike: no
// engine functions, sums of CASE rather than of booleans, parameters whose type the server can
// infer from the column they meet). Each engine's Queries points at these; the store logic
// never reads them directly (queries.hpp documents every statement's parameters and columns).

#include <string_view>

namespace mailroom::providers::sqlstore::shared_sql {

// ViewQueries::recent_traces: ?1 limit, ?2 now -> trace_id, started_at, last_at, message_count,
// root_id, root_from, subject, open_requests. A trace's root is its oldest message (by created_at,
// then seq); a message of it is an open request while one of its deliveries is owed (awaiting ack
// and unexpired, or escalated). Newest started first, ties by trace id.
inline constexpr std::string_view k_recent_traces = R"sql(
SELECT t.trace_id AS trace_id, t.started_at AS started_at, t.last_at AS last_at,
       t.message_count AS message_count, r.id AS root_id, r.sender AS root_from, r.subject AS subject,
       (SELECT count(DISTINCT o.seq) FROM beads AS o JOIN deliveries AS d ON d.message = o.seq
        WHERE o.trace_id = t.trace_id
          AND (d.ack_state = 'escalated'
               OR (d.ack_state = 'awaiting_ack' AND (d.expires_at IS NULL OR d.expires_at > ?2))))
         AS open_requests
FROM (SELECT trace_id, min(created_at) AS started_at, max(created_at) AS last_at, count(*) AS message_count
      FROM beads WHERE trace_id <> '' GROUP BY trace_id
      ORDER BY started_at DESC, trace_id LIMIT ?1) AS t
JOIN beads AS r ON r.seq = (SELECT f.seq FROM beads AS f WHERE f.trace_id = t.trace_id
                            ORDER BY f.created_at, f.seq LIMIT 1)
ORDER BY t.started_at DESC, t.trace_id)sql";

} // namespace mailroom::providers::sqlstore::shared_sql
