#include "render/health.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "render/json.hpp"
#include "render/render.hpp"
#include "text/sanitize.hpp"

namespace mailroom::render {

namespace {

using text::json_text;

// "45s", "12m", "3h", "2d": how long ago, in one unit.
std::string short_age(mail::Millis age)
{
  const std::int64_t seconds = std::max<mail::Millis>(age, 0) / 1000;
  if (seconds < 60) {
    return fmt::format("{}s", seconds);
  }
  if (seconds < 3600) {
    return fmt::format("{}m", seconds / 60);
  }
  if (seconds < 86400) {
    return fmt::format("{}h", seconds / 3600);
  }
  return fmt::format("{}d", seconds / 86400);
}

std::string age_cell(const std::optional<mail::UnixMillis>& when, mail::UnixMillis now)
{
  return when ? format_age(*when, now) : "-";
}

nlohmann::json rfc3339_or_null(const std::optional<mail::UnixMillis>& when)
{
  return when ? nlohmann::json(format_rfc3339(*when)) : nlohmann::json(nullptr);
}

} // namespace

std::string redelivery_note(const mail::Message& message, mail::UnixMillis now)
{
  if (!message.state || message.state->attempts <= 0) {
    return {};
  }
  return fmt::format("redelivered, attempt {}, first sent {} ago", message.state->attempts,
                     short_age(now - message.created_at));
}

text::DisplayText render_peers_table(const mail::PeersResult& result, mail::UnixMillis now,
                                     const Style& style)
{
  Table table;
  table.header = {"PEER",      "STATE",      "PENDING",      "OLDEST",    "ESCALATED",
                  "LAST SENT", "LAST ACKED", "LAST INBOUND", "LAST SEEN", "STALE"};
  for (const mail::PeerHealth& p : result.peers) {
    table.rows.push_back({p.peer, std::string(mail::to_string(p.state)), std::to_string(p.pending_count),
                          p.oldest_pending_age_ms ? short_age(*p.oldest_pending_age_ms) : "-",
                          std::to_string(p.escalated_count), age_cell(p.last_sent_at, now),
                          age_cell(p.last_acked_at, now), age_cell(p.last_inbound_at, now),
                          age_cell(p.last_seen_at, now), p.stale ? "stale" : ""});
  }
  return render_table(table, style);
}

nlohmann::json peers_to_json(const mail::PeersResult& result)
{
  nlohmann::json doc = json_document();
  doc["mailbox"] = json_text(result.mailbox);
  doc["stale_count"] = result.stale_count;
  doc["peers"] = nlohmann::json::array();
  for (const mail::PeerHealth& p : result.peers) {
    doc["peers"].push_back({
        {"peer", json_text(p.peer)},
        {"state", mail::to_string(p.state)},
        {"last_sent_at", rfc3339_or_null(p.last_sent_at)},
        {"last_acked_at", rfc3339_or_null(p.last_acked_at)},
        {"last_inbound_at", rfc3339_or_null(p.last_inbound_at)},
        {"last_seen_at", rfc3339_or_null(p.last_seen_at)},
        {"pending_count", p.pending_count},
        {"oldest_pending_age_ms",
         p.oldest_pending_age_ms ? nlohmann::json(*p.oldest_pending_age_ms) : nlohmann::json(nullptr)},
        {"escalated_count", p.escalated_count},
        {"stale", p.stale},
    });
  }
  return doc;
}

text::DisplayText redelivery_line(const mail::Redelivery& r, bool dry_run)
{
  return text::DisplayText::format(
      "{} {} to {} (attempt {} of {})",
      dry_run ? text::DisplayText("Would redeliver") : text::DisplayText("Redelivered"),
      text::sanitize_line(r.id), text::sanitize_line(r.recipient), r.attempt, r.of);
}

text::DisplayText escalation_line(const mail::Escalation& e, bool dry_run)
{
  const text::DisplayText peer = text::sanitize_line(e.peer);
  const text::DisplayText to = text::sanitize_line(e.escalate_to);
  if (dry_run || !e.escalation_id) {
    return text::DisplayText::format("Would tell {} that {} has not acknowledged {} message(s)", to, peer,
                                     e.ids.size());
  }
  return text::DisplayText::format("Told {} that {} has not acknowledged {} message(s): {}", to, peer,
                                   e.ids.size(), text::sanitize_line(*e.escalation_id));
}

nlohmann::json redelivery_to_json(const mail::Redelivery& r)
{
  return {{"id", json_text(r.id)},
          {"sender", json_text(r.sender)},
          {"recipient", json_text(r.recipient)},
          {"attempt", r.attempt},
          {"max_attempts", r.of}};
}

nlohmann::json escalation_to_json(const mail::Escalation& e)
{
  nlohmann::json ids = nlohmann::json::array();
  for (const mail::MessageId& id : e.ids) {
    ids.push_back(json_text(id));
  }
  return {{"sender", json_text(e.sender)},
          {"peer", json_text(e.peer)},
          {"ids", std::move(ids)},
          {"escalate_to", json_text(e.escalate_to)},
          {"escalation_id",
           e.escalation_id ? nlohmann::json(json_text(*e.escalation_id)) : nlohmann::json(nullptr)}};
}

nlohmann::json sweep_to_json(const mail::SweepReport& report)
{
  nlohmann::json doc = json_document();
  doc["ok"] = !report.stopped.has_value();
  doc["enabled"] = report.enabled;
  doc["dry_run"] = report.dry_run;
  doc["redelivered"] = nlohmann::json::array();
  for (const mail::Redelivery& r : report.redelivered) {
    doc["redelivered"].push_back(redelivery_to_json(r));
  }
  doc["escalated"] = nlohmann::json::array();
  for (const mail::Escalation& e : report.escalated) {
    doc["escalated"].push_back(escalation_to_json(e));
  }
  // The same counts under the names `sweep --every` events carry (both spellings stay).
  doc["redelivered_count"] = report.redelivered.size();
  doc["escalated_count"] = report.escalated.size();
  return doc;
}

text::DisplayText render_pairs_table(const mail::PairsResult& result, mail::UnixMillis now,
                                     const Style& style)
{
  Table table;
  table.header = {"SENDER", "RECIPIENT", "PENDING",    "OLDEST", "ESCALATED",
                  "FAILED", "LAST SENT", "LAST ACKED", "STALE"};
  for (const mail::PairHealth& p : result.pairs) {
    table.rows.push_back({p.sender, p.recipient, std::to_string(p.pending_count),
                          p.oldest_pending_age_ms ? short_age(*p.oldest_pending_age_ms) : "-",
                          std::to_string(p.escalated_count), std::to_string(p.failed_count),
                          age_cell(p.last_sent_at, now), age_cell(p.last_acked_at, now),
                          p.stale ? "stale" : ""});
  }
  return render_table(table, style);
}

nlohmann::json pairs_to_json(const mail::PairsResult& result)
{
  nlohmann::json doc = json_document();
  doc["stale_count"] = result.stale_count;
  doc["pairs"] = nlohmann::json::array();
  for (const mail::PairHealth& p : result.pairs) {
    doc["pairs"].push_back({
        {"sender", json_text(p.sender)},
        {"recipient", json_text(p.recipient)},
        {"pending_count", p.pending_count},
        {"oldest_pending_age_ms",
         p.oldest_pending_age_ms ? nlohmann::json(*p.oldest_pending_age_ms) : nlohmann::json(nullptr)},
        {"escalated_count", p.escalated_count},
        {"failed_count", p.failed_count},
        {"stale", p.stale},
        {"last_sent_at", rfc3339_or_null(p.last_sent_at)},
        {"last_acked_at", rfc3339_or_null(p.last_acked_at)},
    });
  }
  return doc;
}

} // namespace mailroom::render
