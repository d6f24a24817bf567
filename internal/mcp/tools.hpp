#pragma once

// The MCP tools of `mailroom mcp` (contract "MCP server", "Tools" and "Results"): a static list,
// each with an inputSchema and an outputSchema; a call runs as the server's own mailbox on a store
// connection of its own, and answers the CLI's --json object as structuredContent and the gated
// text rendering as content.

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "config/config.hpp"
#include "config/discovery.hpp"
#include "mail/clock.hpp"
#include "mail/policy.hpp"
#include "ops/connection_pool.hpp"
#include "ops/session.hpp"
#include "text/display.hpp"
#include "util/environment.hpp"

namespace mailroom::mcp {

using nlohmann::json;

inline constexpr std::size_t k_default_max_body_bytes = 16 * 1024;
inline constexpr std::size_t k_max_result_bytes = 48 * 1024;
inline constexpr std::size_t k_max_list_bytes = 24 * 1024;
inline constexpr std::size_t k_max_send_mailboxes = 20;
inline constexpr mail::Millis k_default_wait_ms = 30 * 1000;
inline constexpr mail::Millis k_max_wait_ms = 55 * 1000;

// Store connections kept open between calls (each call on its own connection).
using ConnectionPool = ops::ConnectionPool;

// What every call runs with, fixed when the server starts.
struct ToolEnv {
  config::Identity me;
  bool no_identity = false; // the identity fell through to the default `human`
  const config::Config* config = nullptr;
  const mail::MailPolicy* policy = nullptr;
  const mail::Clock* clock = nullptr;
  // What the operations see of the environment: an empty one, so the server's own variables
  // (MAILROOM_IDEMPOTENCY_KEY, TRACEPARENT) never leak into an agent's sends.
  const util::Environment* environment = nullptr;
  // Store connections for the calls (the identity guard applied when one is opened).
  ConnectionPool* connections = nullptr;
  bool open_views = false;      // --open-views: a `mailbox` argument may name another's view
  bool allow_broadcast = false; // --allow-broadcast: sends may reach more than 20 mailboxes
  bool digest = false;          // --digest: every result gets the unread line (ops/digest.hpp)
};

// What a tool answers: the --json object and its text rendering (already through the gate).
struct ToolOutput {
  json structured;
  text::DisplayText text;
  // A result holding a list: the same output with only the first `keep` of its `listed` items
  // (call_tool cuts a list that does not fit at the last whole item; "total" stays, "has_more"
  // becomes true and "next_cursor" names the next page). Empty otherwise.
  std::function<ToolOutput(std::size_t keep)> cut;
  std::size_t listed = 0;
};

// One call in progress: every tool runs its operation (internal/ops) on `session`, which holds
// this call's own store connection and records presence as "mcp".
struct ToolCall {
  std::string_view tool; // its name (a cursor names the tool it pages)
  const ToolEnv& env;
  ops::Session& session;
  const json& args;
  std::stop_token stop;
  // Writes the tools/call answer for a tool's output at once (wait's take marks a message read
  // only in the same step as its answer is written): true when it was written, false when the
  // request was cancelled first (then nothing is ever written for it). Empty when the caller
  // cannot answer early; the tool's result is then the answer.
  std::function<bool(ToolOutput output)> answer;
  // Notices of the operations (e.g. sender_read), given back as "warnings".
  std::vector<ops::Notice> notices;
  // Messages an early answer hands over as read while the store still counts them unread (a
  // wait's take): the --digest line leaves them out.
  std::vector<mail::MessageId> taken;
  bool answered = false; // `answer` wrote the answer
};

using ToolFn = Result<ToolOutput> (*)(ToolCall& call);

struct ToolDef {
  std::string_view name;
  std::string_view description;
  bool core; // listed under --tools core
  json (*input_schema)();
  json (*output_schema)();
  ToolFn run;
  // Whether a call records the mailbox's presence (seen_via "mcp") is ops/presence.cpp's table,
  // by the tool's name.
};

// Every tool, in the order tools/list gives them.
std::span<const ToolDef> all_tools();
// The tool named `name`, or nullptr.
const ToolDef* find_tool(std::string_view name);

// Writes a finished tools/call result now (see ToolCall::answer); true when written.
using Answer = std::function<bool(const json& result)>;

// The tools/call result for `tool` with `args` (already an object): validates the arguments
// against its inputSchema (a usage error result when they fail), opens a connection, runs it,
// shapes the result (bodies cut at max_body_bytes, lists cut to 48 KiB, notices as "warnings").
// Never throws for a tool failure: failures are isError results. A tool that answered through
// `answer` itself makes this return null (nothing more is to be written). The call records the
// presence of `operation` (the tool's name unless given) in ops/presence.cpp's table.
json call_tool(const ToolDef& tool, const ToolEnv& env, const json& args, std::stop_token stop,
               const Answer& answer = {}, std::string_view operation = {});

} // namespace mailroom::mcp
