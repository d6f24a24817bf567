#pragma once

// Waiting inside a tool call (wait, send wait_reply): the `timeout` argument (default 30 s, at
// most 55 s, so the answer comes inside clients' 60-second limits) and the answer of a found
// message. ops::wait ends when the call's stop token is requested.

#include <chrono>
#include <optional>

#include "base/result.hpp"
#include "mcp/tools.hpp"
#include "ops/wait.hpp"

namespace mailroom::mcp {

// The deadline from call.args["timeout"]. Errors: usage (not a duration, or over 55 s).
Result<std::chrono::steady_clock::time_point> wait_deadline(const ToolCall& call);

// wait's answer for `result` (bodies cut; "Nothing arrived (outcome)" when nothing did).
ToolOutput wait_output(const ToolCall& call, ops::WaitResult result);

// A found message's answer, given from inside the step that marks it read: written at once
// through call.answer (or kept in `kept` when the caller answers). Errors: timeout ("the wait
// was cancelled") when the request was cancelled first, so that nothing is marked.
Result<void> deliver_found(ToolCall& call, std::optional<ToolOutput>& kept, ToolOutput out);

} // namespace mailroom::mcp
