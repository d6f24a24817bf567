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
#include "ops/arguments.hpp"
#include "ops/filters.hpp"
#include "render/table.hpp"

namespace mailroom::mcp {

// The one argument reader's reads (ops/arguments.hpp).
using ops::args::arg_flag;
using ops::args::arg_integer;
using ops::args::arg_string;
using ops::args::arg_strings; // a string or a list

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

// The `cursor` argument of a tool whose list may be cut.
json cursor_property();
// The outputSchema of such a tool: its operation's keys, and "total", "has_more" and "next_cursor"
// (always present).
json paged_output_schema(const json& operation);

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
  return ToolOutput{to_json(result), to_text(result, text_style()), {}, 0}; // ops:: by ADL
}

// The `cursor` argument: where the page starts (0 without one). Errors: usage (not a cursor this
// tool gave).
Result<std::size_t> page_offset(const ToolCall& call);
// The cursor of the page of `call.tool` that starts at `offset` (opaque to clients).
std::string page_cursor(std::string_view tool, std::size_t offset);

// Drops the first `offset` items of `items` (the pages before the call's cursor).
template <class T> void skip_items(std::vector<T>& items, std::size_t offset)
{
  items.erase(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(std::min(offset, items.size())));
}

// A result holding one list, `items_of(result)` (a callable giving the vector), as a tool's output
// that call_tool may cut to the result bound. The list is the page after `offset` items of `total`
// in all; the structured object gets "total", "has_more" and "next_cursor" (null on the last
// page). `render` gives an output for a result (default: output_of).
template <class R, class Items, class Render>
ToolOutput paged_output(const ToolCall& call, R result, Items items_of, std::size_t offset, std::size_t total,
                        Render render)
{
  const auto build = [tool = std::string(call.tool), offset, total, render](const R& part,
                                                                            std::size_t shown) {
    ToolOutput out = render(part);
    const bool more = offset + shown < total;
    out.structured["total"] = total;
    out.structured["has_more"] = more;
    out.structured["next_cursor"] = more ? json(page_cursor(tool, offset + shown)) : json(nullptr);
    return out;
  };
  ToolOutput out = build(result, items_of(result).size());
  out.listed = items_of(result).size();
  out.cut = [result = std::move(result), build, items_of](std::size_t keep) {
    R fewer = result;
    auto& kept = items_of(fewer);
    kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(std::min(keep, kept.size())), kept.end());
    return build(fewer, kept.size());
  };
  return out;
}

template <class R, class Items>
ToolOutput paged_output(const ToolCall& call, R result, Items items_of, std::size_t offset, std::size_t total)
{
  return paged_output(call, std::move(result), items_of, offset, total,
                      [](const R& part) { return output_of(part); });
}

// A whole list (team, agents, peers, status, thread, trace) paged by the call's cursor: the items
// before it dropped, the rest cut by call_tool when they do not fit.
template <class R, class Items>
Result<ToolOutput> whole_list_output(const ToolCall& call, R result, Items items_of)
{
  TRY_ASSIGN(const std::size_t offset, page_offset(call));
  auto& items = items_of(result);
  const std::size_t total = items.size();
  skip_items(items, offset);
  return paged_output(call, std::move(result), items_of, offset, total);
}

// The limit a list operation is asked for when the call's page starts at `offset`: the page's
// items and those before it (the operation counts from the first; the page drops those).
ops::LimitRequest paged_limit(const ToolCall& call, std::size_t offset);

// A list operation's result (inbox, sent, search) as a tool's output: the items before the page
// dropped, bodies cut at max_body_bytes, and cut by call_tool when it does not fit.
template <class R> ToolOutput list_output_of(const ToolCall& call, R result, std::size_t offset)
{
  auto& messages = result.listed.messages;
  skip_items(messages, offset);
  for (auto& item : messages) {
    item.message = shaped(call, std::move(item.message));
  }
  const auto total = static_cast<std::size_t>(std::max<std::int64_t>(0, result.listed.total));
  return paged_output(
      call, std::move(result), [](R & r) -> auto& { return r.listed.messages; }, offset, total);
}

} // namespace mailroom::mcp
