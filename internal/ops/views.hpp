#pragma once

// The operator's views of delivery: status (one message's recipients), trace (the messages of one
// trace), peers (the caller's channels) and team (every mailbox). Views change nothing and record
// no presence, whoever runs them.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "mail/health.hpp"
#include "mail/team.hpp"
#include "mail/views.hpp"
#include "render/table.hpp"
#include "session.hpp"
#include "wake.hpp"

namespace mailroom::ops {

// status: each recipient's delivered, read, archived and ack state, and who really sent it.
struct StatusRequest {
  std::string id; // a message id or a unique prefix of one
};
struct StatusResult {
  mail::MessageId id;
  mail::StatusResult status;
};
// Errors: not_found, ambiguous_id, the provider's (unsupported on the exec provider).
Result<StatusResult> status(Session& session, const StatusRequest& request);
// {"schema_version":1,"id","from","sender_uid","sender_host","recipients":[…]}
nlohmann::json to_json(const StatusResult& result);
text::DisplayText to_text(const StatusResult& result, const render::Style& style);
nlohmann::json status_output_schema();

// trace: the messages of one trace (a trace id, or a message id or unique prefix in it).
struct TraceRequest {
  std::string id;
};
struct TraceResult {
  mail::Mailbox mailbox;
  mail::TraceResult trace;
};
// Errors: not_found ("no trace or message …"), ambiguous_id, the provider's.
Result<TraceResult> trace(Session& session, const TraceRequest& request);
// {"schema_version":1,"trace_id","mailbox","messages":[…]}
nlohmann::json to_json(const TraceResult& result);
text::DisplayText to_text(const TraceResult& result, const render::Style& style);
nlohmann::json trace_output_schema();

// peers: the health of the caller's channel to each mailbox it exchanged mail with, or to one,
// with each peer's team state.
struct PeersRequest {
  std::optional<std::string> peer;
};
struct PeersResult {
  mail::Mailbox mailbox; // the caller
  mail::PeersResult peers;
  mail::UnixMillis now = 0;
};
// Errors: usage, invalid_recipient (a peer that is not one mailbox), the provider's.
Result<PeersResult> peers(Session& session, const PeersRequest& request);
nlohmann::json to_json(const PeersResult& result);
// The table is never narrowed to the terminal (only the style's colour is used).
text::DisplayText to_text(const PeersResult& result, const render::Style& style);
nlohmann::json peers_output_schema();

// peers --all: every sender × recipient pair that exchanged mail. Read-only, whoever runs it.
struct PairsRequest {};
struct PairsResult {
  mail::PairsResult pairs;
  mail::UnixMillis now = 0;
};
// Errors: the provider's (unsupported on the exec provider).
Result<PairsResult> pairs(Session& session, const PairsRequest& request);
// {"schema_version":1,"stale_count","pairs":[{"sender","recipient","pending_count",
// "oldest_pending_age_ms","escalated_count","failed_count","stale","last_sent_at","last_acked_at"}]}
nlohmann::json to_json(const PairsResult& result);
// One row per pair, stale first; never narrowed to the terminal (only the style's colour is used).
text::DisplayText to_text(const PairsResult& result, const render::Style& style);
nlohmann::json pairs_output_schema();

// team: every mailbox's state as the operator sees it; each row gains "wake" (wake_json) and
// "wake_failed" (its last wake did not reach the agent), and the text lists the wakes after the
// table.
struct TeamRequest {};
struct TeamResult {
  mail::TeamResult team;
  mail::UnixMillis now = 0;
  std::vector<WakeView> wakes; // each mailbox's wake target and last wake (ops/wake.hpp)
};
// Errors: the provider's (unsupported on the exec provider).
Result<TeamResult> team(Session& session, const TeamRequest& request);
nlohmann::json to_json(const TeamResult& result);
// The table is never narrowed to the terminal (only the style's colour is used).
text::DisplayText to_text(const TeamResult& result, const render::Style& style);
nlohmann::json team_output_schema();

} // namespace mailroom::ops
