// Waking idle agents (contract "Reaching an idle agent (wake)"): wake_status, each mailbox's wake
// target and last wake, with one mailbox's recent ledger rows; ops/wake.hpp. A view: no presence.

#include "mcp/schema.hpp"
#include "mcp/tool_list.hpp"
#include "mcp/tool_support.hpp"
#include "ops/wake.hpp"

namespace mailroom::mcp {

namespace {

Result<ToolOutput> run_wake_status(ToolCall& call)
{
  ops::WakeStatusRequest request;
  request.mailbox = arg_string(call.args, "mailbox");
  if (const auto limit = arg_integer(call.args, "limit")) {
    request.limit = static_cast<std::size_t>(*limit);
  }
  TRY_ASSIGN(const ops::WakeStatusResult result, ops::wake_status(call.session, request));
  return output_of(result);
}

json wake_status_input()
{
  return schema::input(
      json{{"mailbox", schema::string("one mailbox, with its recent wakes")},
           {"limit", schema::integer("at most this many recent wakes (default 20)", 1, 200)}});
}

json wake_status_output()
{
  return schema::from_operation(ops::wake_status_output_schema());
}

} // namespace

void add_wake_tools(std::vector<ToolDef>& tools)
{
  tools.push_back({"wake_status",
                   "Each mailbox's wake target and its last wake's outcome (failed, unreachable…).", false,
                   wake_status_input, wake_status_output, run_wake_status});
}

} // namespace mailroom::mcp
