// Who is around: peers (health of this mailbox's exchanges), team (every mailbox's state) and
// agents (the registered mailboxes; list only): ops/views.hpp and ops/agents.hpp. Views: no presence.

#include "mcp/schema.hpp"
#include "mcp/tool_list.hpp"
#include "mcp/tool_support.hpp"
#include "ops/agents.hpp"
#include "ops/views.hpp"

namespace mailroom::mcp {

namespace {

Result<ToolOutput> run_peers(ToolCall& call)
{
  ops::PeersRequest request;
  request.peer = arg_string(call.args, "peer");
  TRY_ASSIGN(ops::PeersResult result, ops::peers(call.session, request));
  return whole_list_output(
      call, std::move(result), [](ops::PeersResult & r) -> auto& { return r.peers.peers; });
}

Result<ToolOutput> run_team(ToolCall& call)
{
  TRY_ASSIGN(ops::TeamResult result, ops::team(call.session, ops::TeamRequest{}));
  return whole_list_output(
      call, std::move(result), [](ops::TeamResult & r) -> auto& { return r.team.mailboxes; });
}

Result<ToolOutput> run_agents(ToolCall& call)
{
  TRY_ASSIGN(ops::AgentsResult result, ops::agents(call.session, ops::AgentsRequest{}));
  return whole_list_output(
      call, std::move(result), [](ops::AgentsResult & r) -> auto& { return r.agents; });
}

json peers_input()
{
  return schema::input(
      json{{"peer", schema::string("one peer (default: every mailbox you exchanged mail with)")},
           {"cursor", cursor_property()}});
}
json list_input()
{
  return schema::input(json{{"cursor", cursor_property()}});
}
json peers_output()
{
  return paged_output_schema(ops::peers_output_schema());
}
json team_output()
{
  return paged_output_schema(ops::team_output_schema());
}
json agents_output()
{
  return paged_output_schema(ops::agents_output_schema());
}

} // namespace

void add_team_tools(std::vector<ToolDef>& tools)
{
  tools.push_back({"peers",
                   "Health of this mailbox's exchanges: pending acks, staleness, last contact per peer.",
                   false, peers_input, peers_output, run_peers});
  tools.push_back({"team", "Every mailbox of the team: presence, unread, what awaits it.", false, list_input,
                   team_output, run_team});
  tools.push_back({"agents", "The registered mailboxes (names you can send to), with their unread counts.",
                   false, list_input, agents_output, run_agents});
}

} // namespace mailroom::mcp
