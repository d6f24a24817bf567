// Per-delivery changes on this mailbox's own copies: archive, unarchive, delete, mark_read,
// mark_unread, ack. Several ids: each is tried; the result lists changed, already and failed.

#include <fmt/format.h>

#include "mcp/schema.hpp"
#include "mcp/tool_list.hpp"
#include "mcp/tool_support.hpp"
#include "render/json.hpp"
#include "text/sanitize.hpp"

namespace mailroom::mcp {

namespace {

struct Wording {
  std::string_view changed;
  std::string_view already;
};

Result<ToolOutput> change_ids(ToolCall& call, mail::Change change, Wording wording)
{
  const std::vector<std::string> ids = arg_strings(call.args, "ids");
  if (ids.empty()) {
    return usage("missing message ID", "pass \"ids\": one id or a list");
  }
  const mail::Mailbox& me = call.env.me.name;
  json changed = json::array();
  json already = json::array();
  json failed = json::array();
  text::DisplayText text;
  for (const std::string& typed : ids) {
    auto id = call.provider.resolve_id(typed);
    Result<mail::ChangeOutcome> outcome = id.ok() ? call.provider.change(mail::Actor{me, me}, *id, change)
                                                  : Result<mail::ChangeOutcome>(id.error());
    if (!outcome.ok()) {
      if (ids.size() == 1) {
        return std::move(outcome).error();
      }
      failed.push_back({{"id", typed}, {"code", std::string(to_string(outcome.error().code))}});
      text += text::DisplayText::format("{}: {}\n", text::sanitize_line(typed),
                                        text::sanitize_line(outcome.error().message));
      continue;
    }
    const bool was_already = *outcome == mail::ChangeOutcome::already;
    (was_already ? already : changed).push_back(*id);
    text += text::DisplayText::format("{} {}\n",
                                      text::sanitize_line(was_already ? wording.already : wording.changed),
                                      text::sanitize_line(*id));
  }
  json doc = render::json_document();
  doc["mailbox"] = me;
  doc["ok"] = failed.empty();
  doc["ids"] = std::move(changed);
  doc["already"] = std::move(already);
  doc["failed"] = std::move(failed);
  return ToolOutput{std::move(doc), std::move(text)};
}

Result<ToolOutput> run_archive(ToolCall& call)
{
  return change_ids(call, mail::Change::archive, {"Archived", "Already archived"});
}
Result<ToolOutput> run_unarchive(ToolCall& call)
{
  return change_ids(call, mail::Change::unarchive, {"Unarchived", "Not archived"});
}
Result<ToolOutput> run_delete(ToolCall& call)
{
  return change_ids(call, mail::Change::remove, {"Deleted", "Already deleted"});
}
Result<ToolOutput> run_mark_unread(ToolCall& call)
{
  return change_ids(call, mail::Change::mark_unread, {"Marked unread", "Already unread"});
}
Result<ToolOutput> run_ack(ToolCall& call)
{
  return change_ids(call, mail::Change::ack, {"Acked", "Already acked"});
}

Result<ToolOutput> run_mark_read(ToolCall& call)
{
  if (!arg_flag(call.args, "all")) {
    return change_ids(call, mail::Change::mark_read, {"Marked read", "Already read"});
  }
  if (call.args.contains("ids")) {
    return usage("mark_read with all=true takes no message ids");
  }
  const mail::Mailbox& me = call.env.me.name;
  TRY_ASSIGN(std::vector<mail::MessageId> ids, call.provider.mark_all_read(me));
  json doc = render::json_document();
  doc["mailbox"] = me;
  doc["ok"] = true;
  doc["ids"] = ids;
  doc["already"] = json::array();
  doc["failed"] = json::array();
  return ToolOutput{std::move(doc), text::DisplayText::format("Marked {} message(s) read for {}\n",
                                                              ids.size(), text::sanitize_line(me))};
}

json ids_input()
{
  return schema::input(json{{"ids", schema::strings("message ids (unique prefixes are enough)")}}, {"ids"});
}
json mark_read_input()
{
  return schema::input(json{{"ids", schema::strings("message ids (unique prefixes are enough)")},
                            {"all", schema::boolean("mark every unread message of this mailbox read")}});
}
json change_output()
{
  json strings_array{{"type", "array"}, {"items", json{{"type", "string"}}}};
  return schema::output(json{{"ok", json{{"type", "boolean"}}},
                             {"ids", strings_array},
                             {"already", strings_array},
                             {"failed", json{{"type", "array"}, {"items", json{{"type", "object"}}}}}},
                        {"ok", "ids", "already"});
}

} // namespace

void add_change_tools(std::vector<ToolDef>& tools)
{
  tools.push_back({"archive", "Archive messages in this mailbox (they leave the inbox; nothing is lost).",
                   false, ids_input, change_output, run_archive});
  tools.push_back({"unarchive", "Bring archived messages back to the inbox.", false, ids_input, change_output,
                   run_unarchive});
  tools.push_back(
      {"delete", "Delete messages from this mailbox's view.", false, ids_input, change_output, run_delete});
  tools.push_back({"mark_read", "Mark messages read (all=true: every unread message).", false,
                   mark_read_input, change_output, run_mark_read});
  tools.push_back(
      {"mark_unread", "Mark messages unread again.", false, ids_input, change_output, run_mark_unread});
  tools.push_back({"ack", "Acknowledge messages that asked for an ack (acking is not reading).", true,
                   ids_input, change_output, run_ack});
}

} // namespace mailroom::mcp
