#pragma once

// trace --recent (and the HTTP API's GET traces?limit=): the traces started most recently, newest
// first, each with its root message, when it started, how many messages it has and how many of
// them still await an answer. A view: changes nothing, records no presence.

#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "mail/views.hpp"
#include "render/table.hpp"
#include "session.hpp"

namespace mailroom::ops {

inline constexpr std::int64_t k_default_recent_traces = 20;
inline constexpr std::int64_t k_max_recent_traces = 1000;

// `open` and `min_messages` narrow the traces among the k_max_recent_traces started most
// recently (the store's window), then `limit` cuts them.
struct RecentTracesRequest {
  std::optional<std::int64_t> limit;        // default k_default_recent_traces; 1..k_max_recent_traces
  bool open = false;                        // only traces with an open request (open_requests > 0)
  std::optional<std::int64_t> min_messages; // only traces of at least this many messages (>= 1)
};
struct RecentTracesResult {
  std::vector<mail::TraceSummary> traces;
  mail::UnixMillis now = 0;
};
// Errors: usage (a limit outside 1..1000, a min_messages under 1), the provider's (unsupported on the exec
// provider).
Result<RecentTracesResult> recent_traces(Session& session, const RecentTracesRequest& request);
// {"schema_version":1,"traces":[{"trace_id","root_id","from","subject","started_at","last_at",
// "message_count","open_requests"}]}
nlohmann::json to_json(const RecentTracesResult& result);
// TRACE, ROOT, FROM, SUBJECT, STARTED, MESSAGES, OPEN; never narrowed to the terminal's width
// beyond the subject's cap.
text::DisplayText to_text(const RecentTracesResult& result, const render::Style& style);
nlohmann::json recent_traces_output_schema();

} // namespace mailroom::ops
