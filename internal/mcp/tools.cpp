#include "mcp/tools.hpp"

#include <fmt/format.h>

#include "mcp/result.hpp"
#include "mcp/schema.hpp"
#include "mcp/tool_list.hpp"
#include "ops/digest.hpp"
#include "ops/pooled_session.hpp"
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

// The digest line for the caller, read on `session`: nullopt without --digest, with nothing
// unread, or when the store cannot say (the line is a courtesy: its failure fails no call).
std::optional<std::string> digest_on(const ToolEnv& env, ops::Session& session,
                                     const std::vector<mail::MessageId>& taken = {})
{
  if (!env.digest) {
    return std::nullopt;
  }
  auto facts = ops::digest(session, taken);
  return facts.ok() ? ops::digest_line(*facts) : std::nullopt;
}

// The digest line read on a connection of its own (a call refused before it took one).
std::optional<std::string> digest_alone(const ToolEnv& env)
{
  if (!env.digest) {
    return std::nullopt;
  }
  ops::PooledSession pooled(
      *env.connections, ops::SessionParts{*env.config, *env.policy, *env.clock, *env.environment}, env.me);
  if (!pooled.open().ok()) {
    return std::nullopt;
  }
  std::optional<std::string> line = digest_on(env, pooled.session());
  pooled.finish(true);
  return line;
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
               const Answer& answer, std::string_view operation)
{
  if (env.no_identity) {
    return failure(tool, make_error(ErrorCode::no_identity,
                                    "no identity: this server fell through to the default mailbox \"human\"",
                                    "set MAILROOM_IDENTITY for this agent, or write its mailbox name in "
                                    ".mailroom-identity at its worktree's top"));
  }
  if (auto valid = schema::validate(tool.input_schema(), args); !valid.ok()) {
    return failure(tool, valid.error(), digest_alone(env));
  }
  ops::PooledSession pooled(
      *env.connections, ops::SessionParts{*env.config, *env.policy, *env.clock, *env.environment}, env.me);
  if (auto opened = pooled.open(); !opened.ok()) {
    return failure(tool, opened.error()); // no store to count from
  }
  ops::Session& session = pooled.session();
  session.stop = stop;
  // Presence (ops/presence.hpp, the one table): a tool that records it records `mcp`.
  const ops::Presence presence =
      ops::Presence::of(session, operation.empty() ? tool.name : operation, ops::Source::mcp);
  presence.before(session);
  ToolCall call{tool.name, env, session, args, stop, {}, {}, {}, false};
  session.notice = [&call](const ops::Notice& notice) { call.notices.push_back(notice); };
  if (answer) {
    call.answer = [&](ToolOutput output) {
      if (!answer(finish(tool, env, call.notices, std::move(output), digest_on(env, session, call.taken)))) {
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
    presence.after(session);
  }
  const bool reusable = output.ok() || ConnectionPool::reusable_after(output.error());
  // After the call's own changes (a read marked read), on its connection while it is sound.
  const std::optional<std::string> digest =
      call.answered || !reusable ? std::nullopt : digest_on(env, session);
  pooled.finish(reusable);
  if (call.answered) {
    return nullptr;
  }
  if (!output.ok()) {
    return failure(tool, output.error(), digest);
  }
  return finish(tool, env, call.notices, std::move(output).value(), digest);
}

} // namespace mailroom::mcp
