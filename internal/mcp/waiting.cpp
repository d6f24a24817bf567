#include "mcp/waiting.hpp"

#include <fmt/format.h>

#include "mail/duration.hpp"
#include "mcp/tool_support.hpp"
#include "text/sanitize.hpp"

namespace mailroom::mcp {

Result<std::chrono::steady_clock::time_point> wait_deadline(const ToolCall& call)
{
  mail::Millis ms = k_default_wait_ms;
  if (const auto given = arg_string(call.args, "timeout")) {
    TRY_ASSIGN(ms, mail::parse_duration(*given, "timeout"));
    if (ms > k_max_wait_ms) {
      return usage(fmt::format("timeout {} is over the limit of 55s", *given),
                   "wait again after the answer: clients give a tool call 60 seconds");
    }
  }
  return std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
}

ToolOutput wait_output(const ToolCall& call, ops::WaitResult result)
{
  if (result.outcome.message) {
    result.outcome.message = shaped(call, std::move(*result.outcome.message));
  }
  if (result.outcome.notice) {
    result.outcome.notice = shaped(call, std::move(*result.outcome.notice));
  }
  ToolOutput out = output_of(result);
  if (out.structured["message"].is_null()) {
    out.text = text::DisplayText::format("Nothing arrived ({})\n",
                                         text::sanitize_line(out.structured["outcome"].get<std::string>()));
  }
  return out;
}

Result<void> deliver_found(ToolCall& call, std::optional<ToolOutput>& kept, ToolOutput out)
{
  if (call.stop.stop_requested()) {
    return make_error(ErrorCode::timeout, "the wait was cancelled");
  }
  if (!call.answer) {
    kept = std::move(out);
    return {};
  }
  if (!call.answer(std::move(out))) {
    // Cancelled before the answer went out: nothing is marked read.
    return make_error(ErrorCode::timeout, "the wait was cancelled");
  }
  return {};
}

} // namespace mailroom::mcp
