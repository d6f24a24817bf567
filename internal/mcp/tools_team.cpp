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
  TRY_ASSIGN(const ops::PeersResult result, ops::peers(call.session, request));
  return output_of(result);
}

Result<ToolOutput> run_team(ToolCall& call)
{
  TRY_ASSIGN(const ops::TeamResult result, ops::team(call.session, ops::TeamRequest{}));
  return output_of(result);
}

Result<ToolOutput> run_agents(ToolCall& call)
{
  TRY_ASSIGN(const ops::AgentsResult result, ops::agents(call.session, ops::AgentsRequest{}));
  return output_of(result);
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
json peers_output()
{
  return schema::from_operation(ops::peers_output_schema());
}
json team_output()
{
  return schema::from_operation(ops::team_output_schema());
}
json agents_output()
{
  return schema::from_operation(ops::agents_output_schema());
}

} // namespace

void add_team_tools(std::vector<ToolDef>& tools)
{
  tools.push_back({"peers",
                   "Health of this mailbox's exchanges: pending acks, staleness, last contact per peer.",
                   false, peers_input, peers_output, run_peers, false});
  tools.push_back({"team", "Every mailbox of the team: presence, unread, what awaits it.", false, empty_input,
                   team_output, run_team, false});
  tools.push_back({"agents", "The registered mailboxes (names you can send to), with their unread counts.",
                   false, empty_input, agents_output, run_agents, false});
}

} // namespace mailroom::mcp
