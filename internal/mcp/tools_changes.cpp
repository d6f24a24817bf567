// Per-delivery changes on this mailbox's own copies: archive, unarchive, delete, mark_read,
// mark_unread, ack (ops/change.hpp). Several ids: each is tried; the result lists changed, already
// and failed.

#include <fmt/format.h>

#include "mcp/schema.hpp"
#include "mcp/tool_list.hpp"
#include "mcp/tool_support.hpp"
#include "ops/archive_matching.hpp"
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

// archive with filters: this mailbox's matching mail (ops/archive_matching.hpp); another
// mailbox's, or every one's, is the operator's (the CLI, the HTTP API).
Result<ToolOutput> run_archive(ToolCall& call)
{
  ops::ArchiveMatchRequest request;
  request.filter.from = arg_string(call.args, "from");
  request.filter.subject_prefix = arg_string(call.args, "subject_prefix");
  request.filter.subject_contains = arg_string(call.args, "subject_contains");
  request.filter.empty_body = arg_flag(call.args, "empty_body");
  request.include_read = arg_flag(call.args, "include_read");
  if (const auto limit = arg_integer(call.args, "limit")) {
    request.limit = std::to_string(*limit);
  }
  request.dry_run = arg_flag(call.args, "dry_run");
  if (!request.selects()) {
    return change_ids(call, mail::Change::archive, {"Archived", "Already archived"});
  }
  request.ids = arg_strings(call.args, "ids");
  request.to = call.session.me.name;
  TRY_ASSIGN(const ops::ArchiveMatchResult result, ops::archive_matching(call.session, request));
  text::DisplayText text = ops::to_text(result, render::Style{});
  for (const ops::ChangeFailure& failure : result.changes.failed) {
    text += text::DisplayText::format("{}: {}\n", text::sanitize_line(failure.id),
                                      text::sanitize_line(failure.error.message));
  }
  return ToolOutput{ops::to_json(result), std::move(text), {}};
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
json archive_input()
{
  return schema::input(
      json{{"ids", schema::strings("message ids (unique prefixes are enough)")},
           {"from", schema::string("instead of ids: archive your unread mail from this sender")},
           {"subject_prefix", schema::string("instead of ids: ... whose subject starts with this")},
           {"subject_contains", schema::string("instead of ids: ... whose subject contains this")},
           {"empty_body", schema::boolean("with a filter: only messages with an empty body")},
           {"include_read", schema::boolean("with a filter: read mail too")},
           {"limit", schema::integer("with a filter: at most this many (default 100)", 1, 100000)},
           {"dry_run", schema::boolean("with a filter: list what would be archived")}});
}
json archive_output()
{
  // With filters the result also has dry_run and matches (ops::archive_matching_output_schema).
  return schema::from_operation(ops::change_output_schema());
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
  tools.push_back(
      {"archive",
       "Archive messages in this mailbox, by id or by filter (they leave the inbox; nothing is lost).", false,
       archive_input, archive_output, run_archive});
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
