#pragma once

// What the tool implementations share: typed reads of already validated arguments, the view
// argument, the filter and limit requests of the operations, message shaping for MCP (bodies cut
// at max_body_bytes) and the output of an operation's result (its to_json and to_text).

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "mail/message.hpp"
#include "mail/views.hpp"
#include "mcp/tools.hpp"
#include "ops/filters.hpp"
#include "render/table.hpp"

namespace mailroom::mcp {

std::optional<std::string> arg_string(const json& args, const char* key);
std::vector<std::string> arg_strings(const json& args, const char* key); // a string or a list
bool arg_flag(const json& args, const char* key);
std::optional<std::int64_t> arg_integer(const json& args, const char* key);

// The `mailbox` argument of a view: nullopt for the server's own mailbox; another one only under
// --open-views (the operation then treats it as a view: no presence). Errors: usage.
Result<std::optional<std::string>> view_arg(const ToolCall& call);
// `max_body_bytes` (default 16 KiB).
std::size_t max_body_bytes(const ToolCall& call);
// `message` with its body cut to max_body_bytes (body_truncated, body_bytes the whole size).
mail::Message shaped(const ToolCall& call, mail::Message message);
// `limit` as the operations take it (default: theirs).
ops::LimitRequest limit_request(const ToolCall& call);

// The filters' arguments (from, to, type, priority, since, until, unread, archived, thread), as
// the operations take them (they resolve and check them).
json filter_properties();
ops::FilterRequest filter_request(const ToolCall& call);

// A usage error.
Error usage(std::string message, std::string hint = {});

// The style the text renderings use: no colour, no width limit.
inline render::Style text_style()
{
  return render::Style{};
}

// An operation's result as a tool's output: its JSON (the CLI's --json object) and its text.
template <class R> ToolOutput output_of(const R& result)
{
  return ToolOutput{to_json(result), to_text(result, text_style()), {}}; // ops:: by ADL
}

// A list operation's result (inbox, sent, search) as a tool's output: bodies cut at
// max_body_bytes, and a `cut` that rebuilds it with only the first messages (call_tool cuts a
// list that does not fit; total stays, has_more follows).
template <class R> ToolOutput list_output_of(const ToolCall& call, R result)
{
  for (auto& item : result.listed.messages) {
    item.message = shaped(call, std::move(item.message));
  }
  ToolOutput out = output_of(result);
  out.cut = [result = std::move(result)](std::size_t keep) {
    R fewer = result;
    auto& messages = fewer.listed.messages;
    messages.erase(messages.begin() + static_cast<std::ptrdiff_t>(std::min(keep, messages.size())),
                   messages.end());
    return output_of(fewer);
  };
  return out;
}

} // namespace mailroom::mcp
