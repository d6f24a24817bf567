#include "traces.hpp"

#include <fmt/format.h>

#include "render/json.hpp"
#include "render/render.hpp"
#include "schema.hpp"
#include "text/sanitize.hpp"

namespace mailroom::ops {

namespace {

constexpr std::size_t k_subject_cap = 50;

} // namespace

Result<RecentTracesResult> recent_traces(Session& session, const RecentTracesRequest& request)
{
  const std::int64_t limit = request.limit.value_or(k_default_recent_traces);
  if (limit < 1 || limit > k_max_recent_traces) {
    return make_error(ErrorCode::usage, fmt::format("--limit must be between 1 and {}", k_max_recent_traces));
  }
  if (request.min_messages && *request.min_messages < 1) {
    return make_error(ErrorCode::usage, "--min-messages must be at least 1");
  }
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  RecentTracesResult result;
  TRY_ASSIGN(mail::Views * views, mail::need(provider->facets().views, "trace --recent"));
  const bool narrowed = request.open || request.min_messages;
  TRY_ASSIGN(result.traces,
             views->recent_traces(static_cast<std::size_t>(narrowed ? k_max_recent_traces : limit)));
  if (narrowed) {
    std::erase_if(result.traces, [&](const mail::TraceSummary& t) {
      return (request.open && t.open_requests == 0) ||
             (request.min_messages && t.message_count < *request.min_messages);
    });
    if (result.traces.size() > static_cast<std::size_t>(limit)) {
      result.traces.resize(static_cast<std::size_t>(limit));
    }
  }
  result.now = session.clock.now();
  return result;
}

nlohmann::json to_json(const RecentTracesResult& result)
{
  using text::json_text;
  nlohmann::json doc = render::json_document();
  doc["traces"] = nlohmann::json::array();
  for (const mail::TraceSummary& t : result.traces) {
    doc["traces"].push_back({{"trace_id", json_text(t.trace_id)},
                             {"root_id", json_text(t.root_id)},
                             {"from", json_text(t.root_from)},
                             {"subject", json_text(t.subject)},
                             {"started_at", render::format_rfc3339(t.started_at)},
                             {"last_at", render::format_rfc3339(t.last_at)},
                             {"message_count", t.message_count},
                             {"open_requests", t.open_requests}});
  }
  return doc;
}

text::DisplayText to_text(const RecentTracesResult& result, const render::Style& style)
{
  if (result.traces.empty()) {
    return text::DisplayText("No traces\n");
  }
  render::Table table;
  table.header = {"TRACE", "ROOT", "FROM", "SUBJECT", "STARTED", "MESSAGES", "OPEN"};
  table.caps = {32, render::k_default_column_cap, 40, k_subject_cap};
  for (const mail::TraceSummary& t : result.traces) {
    table.rows.push_back({t.trace_id, t.root_id, t.root_from, t.subject,
                          render::format_age(t.started_at, result.now), std::to_string(t.message_count),
                          std::to_string(t.open_requests)});
  }
  return render::render_table(table, render::Style{0, style.color});
}

nlohmann::json recent_traces_output_schema()
{
  using namespace schema;
  nlohmann::json trace = object({{"trace_id", string()},
                                 {"root_id", string()},
                                 {"from", string()},
                                 {"subject", string()},
                                 {"started_at", string()},
                                 {"last_at", string()},
                                 {"message_count", integer()},
                                 {"open_requests", integer()}});
  return document({{"traces", array_of(std::move(trace))}});
}

} // namespace mailroom::ops
