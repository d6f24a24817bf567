#include "render/team.hpp"

#include <fmt/format.h>

#include "render/json.hpp"
#include "render/render.hpp"
#include "text/sanitize.hpp"

namespace mailroom::render {

namespace {

using text::json_text;

nlohmann::json time_or_null(const std::optional<mail::UnixMillis>& when)
{
  return when ? nlohmann::json(format_rfc3339(*when)) : nlohmann::json(nullptr);
}

std::string seen_cell(const mail::TeamMember& m, mail::UnixMillis now)
{
  if (!m.last_seen_at) {
    return "-";
  }
  std::string cell = format_age(*m.last_seen_at, now);
  if (m.seen_via) {
    cell += fmt::format(" via {}", mail::to_string(*m.seen_via));
  }
  return cell;
}

std::string claims_cell(const mail::TeamMember& m)
{
  if (m.claims.empty()) {
    return "-";
  }
  std::string cell = fmt::format("{} by {}", m.claims.front().id, m.claims.front().claimed_by);
  if (m.claims.size() > 1) {
    cell += fmt::format(" +{} more", m.claims.size() - 1);
  }
  return cell;
}

} // namespace

text::DisplayText render_team_table(const mail::TeamResult& result, mail::UnixMillis now, const Style& style)
{
  Table table;
  table.header = {"MAILBOX", "STATE",    "LAST SEEN", "UNREAD",   "OWED",
                  "OVERDUE", "AWAITING", "CLAIMS",    "SET ASIDE"};
  for (const mail::TeamMember& m : result.mailboxes) {
    table.rows.push_back({m.mailbox, std::string(mail::to_string(m.state)), seen_cell(m, now),
                          std::to_string(m.unread), std::to_string(m.owed_count),
                          std::to_string(m.overdue_count), std::to_string(m.awaiting_others_count),
                          claims_cell(m), std::to_string(m.set_aside_count)});
  }
  return render_table(table, style);
}

nlohmann::json team_to_json(const mail::TeamResult& result)
{
  nlohmann::json doc = json_document();
  doc["presence_after_ms"] = result.presence_after_ms;
  doc["stale_after_ms"] = result.stale_after_ms;
  doc["mailboxes"] = nlohmann::json::array();
  for (const mail::TeamMember& m : result.mailboxes) {
    nlohmann::json claims = nlohmann::json::array();
    for (const mail::TeamClaim& c : m.claims) {
      claims.push_back({{"id", json_text(c.id)},
                        {"subject", json_text(c.subject)},
                        {"claimed_by", json_text(c.claimed_by)},
                        {"lease_left_ms", c.lease_left_ms}});
    }
    doc["mailboxes"].push_back({
        {"mailbox", json_text(m.mailbox)},
        {"state", mail::to_string(m.state)},
        {"last_seen_at", time_or_null(m.last_seen_at)},
        {"seen_via", m.seen_via ? nlohmann::json(mail::to_string(*m.seen_via)) : nlohmann::json(nullptr)},
        {"unread", m.unread},
        {"owed_count", m.owed_count},
        {"overdue_count", m.overdue_count},
        {"awaiting_others_count", m.awaiting_others_count},
        {"claims", std::move(claims)},
        {"set_aside_count", m.set_aside_count},
        {"retired_at", time_or_null(m.retired_at)},
    });
  }
  return doc;
}

} // namespace mailroom::render
