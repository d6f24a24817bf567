// Per-delivery changes on this mailbox's own copies: archive, unarchive, delete, mark_read,
// mark_unread, ack (ops/change.hpp). Several ids: each is tried; the result lists changed, already
// and failed.

#include <fmt/format.h>

#include "mcp/schema.hpp"
#include "mcp/tool_list.hpp"
#include "mcp/tool_support.hpp"
#include "ops/change.hpp"
#include "text/sanitize.hpp"

namespace mailroom::mcp {

namespace {

struct Wording {
  std::string_view changed;
  std::string_view already;
};

Result<ToolOutput> change_ids(ToolCall& call, mail::Change change, Wording wording)
{
  ops::ChangeRequest request;
  request.ids = arg_strings(call.args, "ids");
  request.change = change;
  if (request.ids.empty()) {
    return usage("missing message ID", "pass \"ids\": one id or a list");
  }
  text::DisplayText text;
  const ops::ChangeReport report = [&](const std::string& typed, const std::string& id,
                                       const Result<mail::ChangeOutcome>& outcome) -> Result<void> {
    if (!outcome.ok()) {
      text += text::DisplayText::format("{}: {}\n", text::sanitize_line(typed),
                                        text::sanitize_line(outcome.error().message));
      return {};
    }
    const bool was_already = *outcome == mail::ChangeOutcome::already;
    text += text::DisplayText::format("{} {}\n",
                                      text::sanitize_line(was_already ? wording.already : wording.changed),
                                      text::sanitize_line(id));
    return {};
  };
  TRY_ASSIGN(const ops::ChangeResult result, ops::change(call.session, request, report));
  return ToolOutput{ops::to_json(result), std::move(text), {}};
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
  TRY_ASSIGN(const ops::MarkAllReadResult result, ops::mark_all_read(call.session));
  return output_of(result);
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
  return schema::from_operation(ops::change_output_schema());
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
