#include "mcp/tools.hpp"

#include <fmt/format.h>

#include "mcp/result.hpp"
#include "mcp/schema.hpp"
#include "mcp/tool_list.hpp"
#include "ops/presence.hpp"

namespace mailroom::mcp {

namespace {

std::vector<ToolDef> build_tools()
{
  std::vector<ToolDef> tools;
  add_send_tools(tools);
  add_view_tools(tools);
  add_object_tools(tools);
  add_change_tools(tools);
  add_wait_tools(tools);
  add_team_tools(tools);
  add_request_tools(tools);
  add_schedule_tools(tools);
  add_wake_tools(tools);
  return tools;
}

} // namespace

std::span<const ToolDef> all_tools()
{
  static const std::vector<ToolDef> tools = build_tools();
  return tools;
}

const ToolDef* find_tool(std::string_view name)
{
  for (const ToolDef& tool : all_tools()) {
    if (tool.name == name) {
      return &tool;
    }
  }
  return nullptr;
}

json call_tool(const ToolDef& tool, const ToolEnv& env, const json& args, std::stop_token stop,
               const Answer& answer)
{
  if (env.no_identity) {
    return failure(tool, make_error(ErrorCode::no_identity,
                                    "no identity: this server fell through to the default mailbox \"human\"",
                                    "set MAILROOM_IDENTITY for this agent"));
  }
  if (auto valid = schema::validate(tool.input_schema(), args); !valid.ok()) {
    return failure(tool, valid.error());
  }
  auto connection = env.connections->take();
  if (!connection.ok()) {
    return failure(tool, connection.error());
  }
  ops::ProviderSlot slot(**connection);
  ops::Session session{*env.config, *env.policy, *env.clock, env.me, *env.environment, slot};
  session.stop = stop;
  if (tool.presence) {
    session.presence = mail::SeenVia::mcp;
  }
  ToolCall call{tool.name, env, session, args, stop, {}, {}, false};
  session.notice = [&call](const ops::Notice& notice) { call.notices.push_back(notice); };
  if (answer) {
    call.answer = [&](ToolOutput output) {
      if (!answer(finish(tool, env, call.notices, std::move(output)))) {
        return false;
      }
      call.answered = true;
      return true;
    };
  }
  Result<ToolOutput> output = make_error(ErrorCode::store_error, "internal error");
  try {
    output = tool.run(call);
  } catch (const std::exception& e) {
    output = make_error(ErrorCode::store_error, fmt::format("internal error: {}", e.what()));
  }
  if (output.ok() || call.answered) {
    ops::record_presence(session);
  }
  if (output.ok() || ConnectionPool::reusable_after(output.error())) {
    env.connections->give_back(std::move(connection).value());
  }
  if (call.answered) {
    return nullptr;
  }
  if (!output.ok()) {
    return failure(tool, output.error());
  }
  return finish(tool, env, call.notices, std::move(output).value());
}

} // namespace mailroom::mcp
