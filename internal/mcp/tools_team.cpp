// Who is around: peers (health of this mailbox's exchanges), team (every mailbox's state) and
// agents (the registered mailboxes; list only).

#include "mcp/schema.hpp"
#include "mcp/tool_list.hpp"
#include "mcp/tool_support.hpp"
#include "render/health.hpp"
#include "render/json.hpp"
#include "render/render.hpp"
#include "render/team.hpp"
#include "text/sanitize.hpp"

namespace mailroom::mcp {

namespace {

Result<ToolOutput> run_peers(ToolCall& call)
{
  std::optional<mail::Mailbox> peer;
  if (const auto named = arg_string(call.args, "peer")) {
    TRY_ASSIGN(peer, mailbox_arg(*named, "peer"));
  }
  TRY_ASSIGN(const mail::PeersResult result, call.provider.peers(call.env.me.name, peer));
  text::DisplayText text =
      result.peers.empty()
          ? text::DisplayText::format("No peers for {}\n", text::sanitize_line(call.env.me.name))
          : render::render_peers_table(result, call.env.clock->now());
  return ToolOutput{render::peers_to_json(result), std::move(text)};
}

Result<ToolOutput> run_team(ToolCall& call)
{
  TRY_ASSIGN(const mail::TeamResult result, call.provider.team());
  json doc = render::team_to_json(result);
  doc["mailbox"] = call.env.me.name;
  return ToolOutput{std::move(doc), render::render_team_table(result, call.env.clock->now())};
}

Result<ToolOutput> run_agents(ToolCall& call)
{
  TRY_ASSIGN(const std::vector<mail::Agent> agents, call.provider.agents());
  json doc = render::json_document();
  doc["mailbox"] = call.env.me.name;
  doc["agents"] = json::array();
  for (const auto& a : agents) {
    doc["agents"].push_back(
        {{"name", a.name},
         {"registered_at", render::format_rfc3339(a.registered_at)},
         {"last_seen", a.last_seen ? json(render::format_rfc3339(*a.last_seen)) : json(nullptr)},
         {"unread", a.unread}});
  }
  text::DisplayText text = agents.empty() ? text::DisplayText("No registered mailboxes\n")
                                          : render::render_agents_table(agents, call.env.clock->now());
  return ToolOutput{std::move(doc), std::move(text)};
}

json peers_input()
{
  return schema::input(
      json{{"peer", schema::string("one peer (default: every mailbox you exchanged mail with)")}});
}
json empty_input()
{
  return schema::input(json::object());
}
json object_list(std::string_view key)
{
  return json{{std::string(key), json{{"type", "array"}, {"items", json{{"type", "object"}}}}}};
}
json peers_output()
{
  json properties = object_list("peers");
  properties["stale_count"] = schema::count();
  return schema::output(std::move(properties), {"peers", "stale_count"});
}
json team_output()
{
  return schema::output(object_list("mailboxes"), {"mailboxes"});
}
json agents_output()
{
  return schema::output(object_list("agents"), {"agents"});
}

} // namespace

void add_team_tools(std::vector<ToolDef>& tools)
{
  tools.push_back({"peers",
                   "Health of this mailbox's exchanges: pending acks, staleness, last contact per peer.",
                   false, peers_input, peers_output, run_peers});
  tools.push_back({"team", "Every mailbox of the team: presence, unread, what awaits it.", false, empty_input,
                   team_output, run_team});
  tools.push_back({"agents", "The registered mailboxes (names you can send to), with their unread counts.",
                   false, empty_input, agents_output, run_agents});
}

} // namespace mailroom::mcp
