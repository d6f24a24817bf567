// Lists and counts: inbox, sent, search, count, check (ops/inbox.hpp, sent, search, count, check).

#include <fmt/format.h>

#include "mcp/schema.hpp"
#include "mcp/tool_list.hpp"
#include "mcp/tool_support.hpp"
#include "ops/check.hpp"
#include "ops/count.hpp"
#include "ops/inbox.hpp"
#include "ops/search.hpp"
#include "ops/sent.hpp"
#include "render/render.hpp"
#include "text/sanitize.hpp"

namespace mailroom::mcp {

namespace {

json mailbox_property()
{
  return schema::string("another mailbox's view (needs mcp --open-views)");
}
json limit_property()
{
  return schema::integer("at most this many messages (default 50)", 1, 10000);
}
json body_property()
{
  return schema::integer("cut each body to this many bytes (default 16384)", 0, 1 << 20);
}

json list_input(json extra, std::vector<std::string> required = {})
{
  json properties = filter_properties();
  properties["limit"] = limit_property();
  properties["max_body_bytes"] = body_property();
  properties["cursor"] = cursor_property();
  for (auto& [key, value] : extra.items()) {
    properties[key] = value;
  }
  return schema::input(std::move(properties), std::move(required));
}

Result<ToolOutput> run_inbox(ToolCall& call)
{
  ops::InboxRequest request;
  TRY_ASSIGN(const std::size_t offset, page_offset(call));
  TRY_ASSIGN(request.mailbox, view_arg(call));
  request.all = arg_flag(call.args, "all");
  request.awaiting = arg_flag(call.args, "awaiting");
  request.limit = paged_limit(call, offset);
  request.filters = filter_request(call);
  TRY_ASSIGN(ops::InboxResult result, ops::inbox(call.session, request));
  return list_output_of(call, std::move(result), offset);
}

Result<ToolOutput> run_sent(ToolCall& call)
{
  ops::SentRequest request;
  TRY_ASSIGN(const std::size_t offset, page_offset(call));
  TRY_ASSIGN(request.mailbox, view_arg(call));
  request.limit = paged_limit(call, offset);
  request.filters = filter_request(call);
  TRY_ASSIGN(ops::SentResult result, ops::sent(call.session, request));
  return list_output_of(call, std::move(result), offset);
}

Result<ToolOutput> run_search(ToolCall& call)
{
  ops::SearchRequest request;
  TRY_ASSIGN(const std::size_t offset, page_offset(call));
  if (const auto words = arg_string(call.args, "query"); words && !words->empty()) {
    request.words = {*words};
  }
  TRY_ASSIGN(request.mailbox, view_arg(call));
  request.limit = paged_limit(call, offset);
  request.filters = filter_request(call);
  TRY_ASSIGN(ops::SearchResult result, ops::search(call.session, request));
  return list_output_of(call, std::move(result), offset);
}

Result<ToolOutput> run_count(ToolCall& call)
{
  ops::CountRequest request;
  TRY_ASSIGN(request.mailbox, view_arg(call));
  TRY_ASSIGN(const ops::CountResult result, ops::count(call.session, request));
  return output_of(result);
}

// check's text: its count line and the listed messages' table (the CLI's check prints no table).
ToolOutput check_text_output(const ops::CheckResult& result, mail::UnixMillis now)
{
  ToolOutput out = output_of(result);
  if (result.found.unread == 0) {
    out.text = text::DisplayText::format("No unread messages for {}\n", text::sanitize_line(result.mailbox));
  } else if (!result.found.messages.empty()) {
    out.text += render::render_inbox_table(result.found.messages, now, false);
  }
  return out;
}

Result<ToolOutput> run_check(ToolCall& call)
{
  ops::CheckRequest request;
  TRY_ASSIGN(const std::size_t offset, page_offset(call));
  TRY_ASSIGN(request.mailbox, view_arg(call));
  request.limit =
      std::to_string(offset + static_cast<std::size_t>(arg_integer(call.args, "limit").value_or(3)));
  TRY_ASSIGN(ops::CheckResult result, ops::check(call.session, request));
  skip_items(result.found.messages, offset);
  for (mail::Message& message : result.found.messages) {
    message = shaped(call, std::move(message));
  }
  const mail::UnixMillis now = call.env.clock->now();
  const auto total = static_cast<std::size_t>(std::max<std::int64_t>(0, result.found.unread));
  return paged_output(
      call, std::move(result), [](ops::CheckResult & r) -> auto& { return r.found.messages; }, offset, total,
      [now](const ops::CheckResult& part) { return check_text_output(part, now); });
}

json no_input()
{
  return schema::input(json{{"mailbox", mailbox_property()}});
}

json inbox_input()
{
  return list_input(
      json{{"mailbox", mailbox_property()},
           {"all", schema::boolean("include messages already read")},
           {"awaiting", schema::boolean("only what awaits this mailbox's reply or ack, read or not")}});
}
json sent_input()
{
  return list_input(json{{"mailbox", mailbox_property()}});
}
json search_input()
{
  return list_input(json{{"mailbox", mailbox_property()},
                         {"query", schema::string("words, \"a phrase\", prefix*, OR, NOT")}},
                    {"query"});
}
json count_input()
{
  return no_input();
}
json check_input()
{
  return schema::input(json{{"mailbox", mailbox_property()},
                            {"limit", schema::integer("list at most this many (default 3)", 1, 100)},
                            {"max_body_bytes", body_property()},
                            {"cursor", cursor_property()}});
}

json inbox_output()
{
  return paged_output_schema(ops::inbox_output_schema());
}
json sent_output()
{
  return paged_output_schema(ops::sent_output_schema());
}
json search_output()
{
  return paged_output_schema(ops::search_output_schema());
}
json count_output()
{
  return schema::from_operation(ops::count_output_schema());
}
json check_output()
{
  return paged_output_schema(ops::check_output_schema());
}

} // namespace

void add_view_tools(std::vector<ToolDef>& tools)
{
  tools.push_back(
      {"inbox", "List this mailbox's unread messages (all with all=true), urgent first, then oldest first.",
       true, inbox_input, inbox_output, run_inbox});
  tools.push_back({"sent", "List messages this mailbox sent, newest first, with their delivery summary.",
                   false, sent_input, sent_output, run_sent});
  tools.push_back({"search", "Full-text search of the mail this mailbox sent or received, best match first.",
                   false, search_input, search_output, run_search});
  tools.push_back({"count", "Count this mailbox's messages: total and unread.", false, count_input,
                   count_output, run_count});
  tools.push_back({"check",
                   "Whether there is unread mail: the unread count and the first few unread messages.", false,
                   check_input, check_output, run_check});
}

} // namespace mailroom::mcp
