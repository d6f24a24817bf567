// Lists and counts: inbox, sent, search, count, check.

#include <fmt/format.h>

#include "mail/limits.hpp"
#include "mcp/schema.hpp"
#include "mcp/tool_list.hpp"
#include "mcp/tool_support.hpp"
#include "render/json.hpp"
#include "render/lists.hpp"
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
  for (auto& [key, value] : extra.items()) {
    properties[key] = value;
  }
  return schema::input(std::move(properties), std::move(required));
}

json list_output_schema(json extra = json::object(), std::vector<std::string> required = {})
{
  json properties{{"messages", schema::message_list()},
                  {"total", schema::count()},
                  {"has_more", json{{"type", "boolean"}}}};
  for (auto& [key, value] : extra.items()) {
    properties[key] = value;
  }
  required.insert(required.end(), {"messages", "total", "has_more"});
  return schema::output(std::move(properties), std::move(required));
}

std::vector<mail::Message> plain(const std::vector<mail::ListedMessage>& listed)
{
  std::vector<mail::Message> messages;
  for (const auto& item : listed) {
    messages.push_back(item.message);
  }
  return messages;
}

text::DisplayText inbox_text(const std::vector<mail::ListedMessage>& listed, const ToolCall& call)
{
  if (listed.empty()) {
    return text::DisplayText("No messages\n");
  }
  return render::render_inbox_table(plain(listed), call.env.clock->now(), true);
}

text::DisplayText sent_text(const std::vector<mail::ListedMessage>& listed, const ToolCall& call)
{
  if (listed.empty()) {
    return text::DisplayText("No sent messages\n");
  }
  return render::render_sent_table(listed, call.env.clock->now());
}

Result<ToolOutput> listed(ToolCall& call, mail::Box box, bool include_read, std::string search, json extra,
                          text::DisplayText (*render)(const std::vector<mail::ListedMessage>&,
                                                      const ToolCall&))
{
  TRY_ASSIGN(const mail::Mailbox mailbox, view_mailbox(call));
  mail::ListQuery query;
  query.mailbox = mailbox;
  query.box = box;
  query.include_read = include_read;
  query.search = std::move(search);
  query.limit = list_limit(call);
  query.body_bytes = max_body_bytes(call);
  TRY_ASSIGN(query.filters, filters_from(call));
  TRY_ASSIGN(mail::ListResult result, call.provider.list(query));
  if (box == mail::Box::inbox) {
    extra["unread"] = result.unread;
  }
  ListShape shape{mailbox, std::move(result), std::move(extra), render};
  ToolOutput out = list_output(call, shape, shape.listed.messages.size());
  // call_tool cuts the list when the whole does not fit; it rebuilds through the same shape.
  out.cut = [shape = std::move(shape), &call](std::size_t keep) { return list_output(call, shape, keep); };
  return out;
}

Result<ToolOutput> run_inbox(ToolCall& call)
{
  return listed(call, mail::Box::inbox, arg_flag(call.args, "all"), {}, json::object(), inbox_text);
}

Result<ToolOutput> run_sent(ToolCall& call)
{
  return listed(call, mail::Box::sent, true, {}, json::object(), sent_text);
}

Result<ToolOutput> run_search(ToolCall& call)
{
  const std::string words = arg_string(call.args, "query").value_or("");
  if (words.empty()) {
    return usage("missing argument \"query\"");
  }
  return listed(call, mail::Box::search, true, words, json{{"query", text::json_text(words)}}, inbox_text);
}

Result<ToolOutput> run_count(ToolCall& call)
{
  TRY_ASSIGN(const mail::Mailbox mailbox, view_mailbox(call));
  TRY_ASSIGN(const mail::Counts counts, call.provider.count(mailbox));
  json doc = render::json_document();
  doc["mailbox"] = mailbox;
  doc["total"] = counts.total;
  doc["unread"] = counts.unread;
  return ToolOutput{std::move(doc), text::DisplayText::format("{} total, {} unread for {}\n", counts.total,
                                                              counts.unread, text::sanitize_line(mailbox))};
}

Result<ToolOutput> run_check(ToolCall& call)
{
  TRY_ASSIGN(const mail::Mailbox mailbox, view_mailbox(call));
  const std::size_t limit = static_cast<std::size_t>(arg_integer(call.args, "limit").value_or(3));
  TRY_ASSIGN(mail::CheckResult result, call.provider.check(mailbox, limit, max_body_bytes(call)));
  json doc = render::json_document();
  doc["mailbox"] = mailbox;
  doc["unread"] = result.unread;
  doc["messages"] = json::array();
  std::vector<mail::Message> messages;
  for (auto& m : result.messages) {
    messages.push_back(shaped(call, std::move(m)));
    doc["messages"].push_back(render::message_to_json(messages.back()));
  }
  text::DisplayText text =
      text::DisplayText::format("{} unread message(s) for {}\n", result.unread, text::sanitize_line(mailbox));
  if (!messages.empty()) {
    text += render::render_inbox_table(messages, call.env.clock->now(), false);
  }
  return ToolOutput{std::move(doc), std::move(text)};
}

json no_input()
{
  return schema::input(json{{"mailbox", mailbox_property()}});
}

json inbox_input()
{
  return list_input(
      json{{"mailbox", mailbox_property()}, {"all", schema::boolean("include messages already read")}});
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
                            {"max_body_bytes", body_property()}});
}

json inbox_output()
{
  return list_output_schema(json{{"unread", schema::count()}}, {"unread"});
}
json sent_output()
{
  return list_output_schema();
}
json search_output()
{
  return list_output_schema(json{{"query", schema::any_string()}}, {"query"});
}
json count_output()
{
  return schema::output(json{{"total", schema::count()}, {"unread", schema::count()}}, {"total", "unread"});
}
json check_output()
{
  return schema::output(json{{"unread", schema::count()}, {"messages", schema::message_list()}},
                        {"unread", "messages"});
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
