#include "views.hpp"

#include <fmt/format.h>

#include "acting.hpp"
#include "render/delivery_json.hpp"
#include "render/health.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "render/team.hpp"
#include "render/trace.hpp"
#include "schema.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"

namespace mailroom::ops {

namespace {

bool is_trace_id(std::string_view id)
{
  return id.size() == 32 && id.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

} // namespace

Result<StatusResult> status(Session& session, const StatusRequest& request)
{
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  StatusResult result;
  TRY_ASSIGN(result.id, mail::resolve_id(*provider, request.id));
  TRY_ASSIGN(mail::Views * views, mail::need(provider->facets().views, "status"));
  TRY_ASSIGN(result.status, views->status(result.id));
  return result;
}

nlohmann::json to_json(const StatusResult& result)
{
  const mail::Message& m = result.status.message;
  nlohmann::json doc = render::json_document();
  doc["id"] = result.id;
  doc["from"] = m.from;
  doc["sender_uid"] = m.sender_uid;
  doc["sender_host"] = m.sender_host;
  doc["recipients"] = nlohmann::json::array();
  for (const auto& r : result.status.deliveries) {
    doc["recipients"].push_back(render::delivery_to_json(r));
  }
  return doc;
}

text::DisplayText to_text(const StatusResult& result, const render::Style& style)
{
  // Who sent it, as recorded by the store (identities are assertions; the OS user is not).
  const mail::Message& m = result.status.message;
  const text::DisplayText uid = m.sender_uid >= 0 ? text::DisplayText::format("uid {}", m.sender_uid)
                                                  : text::DisplayText("uid unknown");
  const text::DisplayText host = m.sender_host.empty() ? text::DisplayText("an unknown host")
                                                       : text::sanitize_line(text::cap_bytes(m.sender_host));
  return text::DisplayText::format("From {} ({} on {})\n", text::sanitize_line(text::cap_bytes(m.from)), uid,
                                   host) +
         render::render_status_table(result.status.deliveries, style);
}

nlohmann::json status_output_schema()
{
  using namespace schema;
  return document({{"id", string()},
                   {"from", string()},
                   {"sender_uid", integer()},
                   {"sender_host", string()},
                   {"recipients", array_of(delivery())}});
}

Result<TraceResult> trace(Session& session, const TraceRequest& request)
{
  std::string id = request.id;
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  if (!is_trace_id(id)) {
    // A message id, or a unique prefix of one (an ambiguous prefix is exit 2).
    auto resolved = mail::resolve_id(*provider, id);
    if (resolved.ok()) {
      id = *resolved;
    } else if (resolved.error().code != ErrorCode::not_found) {
      return std::move(resolved).error();
    }
  }
  TRY_ASSIGN(mail::Views * views, mail::need(provider->facets().views, "trace"));
  auto found = views->trace(session.me.name, id);
  if (!found.ok() && found.error().code == ErrorCode::not_found) {
    return make_error(ErrorCode::not_found,
                      fmt::format("no trace or message \"{}\"", text::cap_for_echo(request.id)));
  }
  TRY_ASSIGN(mail::TraceResult messages, std::move(found));
  return TraceResult{session.me.name, std::move(messages)};
}

nlohmann::json to_json(const TraceResult& result)
{
  nlohmann::json doc = render::json_document();
  doc["trace_id"] = result.trace.trace_id;
  doc["mailbox"] = result.mailbox;
  doc["messages"] = nlohmann::json::array();
  for (const auto& m : result.trace.messages) {
    nlohmann::json message = render::message_to_json(m);
    message["deliveries"] = nlohmann::json::array();
    const auto found = result.trace.deliveries.find(m.id);
    if (found != result.trace.deliveries.end()) {
      for (const mail::DeliveryStatus& d : found->second) {
        message["deliveries"].push_back(render::delivery_to_json(d));
      }
    }
    doc["messages"].push_back(std::move(message));
  }
  return doc;
}

text::DisplayText to_text(const TraceResult& result, const render::Style& style)
{
  const text::DisplayText title =
      text::DisplayText::format("Trace {}", text::sanitize_line(result.trace.trace_id));
  return (style.color ? text::styled(title, text::Style::bold) : title) + text::DisplayText("\n") +
         render::render_trace_tree(result.trace.messages, result.trace.deliveries);
}

nlohmann::json trace_output_schema()
{
  using namespace schema;
  nlohmann::json traced = message();
  traced["properties"]["deliveries"] = array_of(delivery());
  traced["required"].push_back("deliveries");
  return document({{"trace_id", string()}, {"mailbox", string()}, {"messages", array_of(std::move(traced))}});
}

Result<PeersResult> peers(Session& session, const PeersRequest& request)
{
  std::optional<mail::Mailbox> peer;
  if (request.peer) {
    TRY_ASSIGN(peer, listing_target(session, request.peer));
  }
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  PeersResult result;
  result.mailbox = session.me.name;
  TRY_ASSIGN(mail::Health * health, mail::need(provider->facets().health, "peers"));
  TRY_ASSIGN(result.peers, health->peers(session.me.name, peer));
  result.now = session.clock.now();
  return result;
}

nlohmann::json to_json(const PeersResult& result)
{
  return render::peers_to_json(result.peers);
}

text::DisplayText to_text(const PeersResult& result, const render::Style& style)
{
  if (result.peers.peers.empty()) {
    return text::DisplayText::format("No peers for {}\n", text::sanitize_line(result.mailbox));
  }
  return render::render_peers_table(result.peers, result.now, render::Style{0, style.color});
}

nlohmann::json peers_output_schema()
{
  using namespace schema;
  const nlohmann::json time = nullable(string());
  nlohmann::json peer = object({{"peer", string()},
                                {"state", string()},
                                {"last_sent_at", time},
                                {"last_acked_at", time},
                                {"last_inbound_at", time},
                                {"last_seen_at", time},
                                {"pending_count", integer()},
                                {"oldest_pending_age_ms", nullable(integer())},
                                {"escalated_count", integer()},
                                {"stale", boolean()}});
  return document({{"mailbox", string()}, {"stale_count", integer()}, {"peers", array_of(std::move(peer))}});
}

Result<PairsResult> pairs(Session& session, const PairsRequest& /*request*/)
{
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  PairsResult result;
  TRY_ASSIGN(mail::Health * health, mail::need(provider->facets().health, "peers --all"));
  TRY_ASSIGN(result.pairs, health->pairs());
  result.now = session.clock.now();
  return result;
}

nlohmann::json to_json(const PairsResult& result)
{
  return render::pairs_to_json(result.pairs);
}

text::DisplayText to_text(const PairsResult& result, const render::Style& style)
{
  if (result.pairs.pairs.empty()) {
    return text::DisplayText("No mail between mailboxes yet\n");
  }
  return render::render_pairs_table(result.pairs, result.now, render::Style{0, style.color});
}

nlohmann::json pairs_output_schema()
{
  using namespace schema;
  const nlohmann::json time = nullable(string());
  nlohmann::json pair = object({{"sender", string()},
                                {"recipient", string()},
                                {"pending_count", integer()},
                                {"oldest_pending_age_ms", nullable(integer())},
                                {"escalated_count", integer()},
                                {"failed_count", integer()},
                                {"stale", boolean()},
                                {"last_sent_at", time},
                                {"last_acked_at", time}});
  return document({{"stale_count", integer()}, {"pairs", array_of(std::move(pair))}});
}

Result<TeamResult> team(Session& session, const TeamRequest& /*request*/)
{
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  TeamResult result;
  TRY_ASSIGN(mail::Health * health, mail::need(provider->facets().health, "team"));
  TRY_ASSIGN(result.team, health->team());
  TRY_ASSIGN(result.wakes, wake_views(session));
  result.now = session.clock.now();
  return result;
}

nlohmann::json to_json(const TeamResult& result)
{
  nlohmann::json doc = render::team_to_json(result.team);
  for (nlohmann::json& row : doc["mailboxes"]) {
    const WakeView* wake = find_wake(result.wakes, row["mailbox"].get<std::string>());
    row["wake"] = wake_json(wake);
    row["wake_failed"] = wake != nullptr && wake->failed;
  }
  return doc;
}

text::DisplayText to_text(const TeamResult& result, const render::Style& style)
{
  if (result.team.mailboxes.empty()) {
    return text::DisplayText("No mailboxes\n");
  }
  return render::render_team_table(result.team, result.now, render::Style{0, style.color}) +
         wake_lines(result.wakes, result.now);
}

nlohmann::json team_output_schema()
{
  using namespace schema;
  nlohmann::json claim = object(
      {{"id", string()}, {"subject", string()}, {"claimed_by", string()}, {"lease_left_ms", integer()}});
  nlohmann::json member = object({{"mailbox", string()},
                                  {"state", string()},
                                  {"last_seen_at", nullable(string())},
                                  {"seen_via", nullable(string())},
                                  {"unread", integer()},
                                  {"owed_count", integer()},
                                  {"overdue_count", integer()},
                                  {"awaiting_others_count", integer()},
                                  {"claims", array_of(std::move(claim))},
                                  {"set_aside_count", integer()},
                                  {"retired_at", nullable(string())},
                                  {"wake", wake_schema()},
                                  {"wake_failed", boolean()}});
  return document({{"presence_after_ms", integer()},
                   {"stale_after_ms", integer()},
                   {"mailboxes", array_of(std::move(member))}});
}

} // namespace mailroom::ops
