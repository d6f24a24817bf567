#include "sse.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "render/json.hpp"

namespace mailroom::http {

namespace {

// One line of data: JSON written on one line never holds a raw newline, so it frames safely
// (dump_json ends it with the newline).
std::string data_line(const nlohmann::json& data)
{
  return "data: " + render::dump_json(data);
}

Result<std::int64_t> parse_seq(const std::string& text, std::string_view what)
{
  std::int64_t seq = -1;
  const char* last = text.data() + text.size();
  const auto [end, ec] = std::from_chars(text.data(), last, seq);
  if (text.empty() || ec != std::errc() || end != last || seq < 0) {
    return make_error(ErrorCode::usage,
                      fmt::format("{} must be an event id (a number), not \"{}\"", what, text.substr(0, 40)));
  }
  return seq;
}

} // namespace

std::string sse_event(std::int64_t seq, std::string_view type, const nlohmann::json& data)
{
  return fmt::format("id: {}\nevent: {}\n{}\n", seq, type, data_line(data));
}

std::string sse_reset(std::int64_t oldest_kept)
{
  return fmt::format("event: reset\n{}\n", data_line(nlohmann::json{{"oldest_kept", oldest_kept}}));
}

std::string sse_store(const Error* down)
{
  nlohmann::json data{{"ok", down == nullptr}};
  if (down != nullptr) {
    data["error"] = render::error_to_json(*down).at("error");
  }
  return fmt::format("event: store\n{}\n", data_line(data));
}

std::string sse_heartbeat()
{
  return ": heartbeat\n\n";
}

Result<std::optional<std::int64_t>> stream_after(const std::optional<std::string>& last_event_id,
                                                 const std::optional<std::string>& after)
{
  if (last_event_id) {
    TRY_ASSIGN(const std::int64_t seq, parse_seq(*last_event_id, "Last-Event-ID"));
    return std::optional<std::int64_t>(seq);
  }
  if (after) {
    TRY_ASSIGN(const std::int64_t seq, parse_seq(*after, "after"));
    return std::optional<std::int64_t>(seq);
  }
  return std::optional<std::int64_t>();
}

mail::Millis peer_state_period(mail::Millis presence_after)
{
  return std::clamp<mail::Millis>(presence_after / 10, 100, 10 * 1000);
}

std::vector<PeerStates::Change> PeerStates::update(const std::vector<mail::TeamMember>& team)
{
  std::vector<Change> changes;
  std::map<mail::Mailbox, mail::TeamState> now;
  for (const mail::TeamMember& member : team) {
    now[member.mailbox] = member.state;
    if (!m_known) {
      continue;
    }
    const auto before = m_states.find(member.mailbox);
    if (before == m_states.end()) {
      changes.push_back(Change{member.mailbox, member.state, std::nullopt});
    } else if (before->second != member.state) {
      changes.push_back(Change{member.mailbox, member.state, before->second});
    }
  }
  m_states = std::move(now);
  m_known = true;
  return changes;
}

std::string sse_peer_state(const PeerStates::Change& change, mail::UnixMillis at)
{
  nlohmann::json data{{"seq", nullptr},
                      {"at", at},
                      {"type", "peer.state"},
                      {"id", nullptr},
                      {"mailbox", change.mailbox},
                      {"actor", nullptr},
                      {"state", mail::to_string(change.state)},
                      {"previous", change.previous ? nlohmann::json(mail::to_string(*change.previous))
                                                   : nlohmann::json(nullptr)}};
  return fmt::format("event: peer.state\n{}\n", data_line(data));
}

} // namespace mailroom::http
