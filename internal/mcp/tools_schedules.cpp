// Schedules (contract "Schedules"): schedule_add (a recurring schedule of this mailbox, or a
// one-shot with `at`/`in`, as send --at; both answer the schedule), schedule_list and
// schedule_cancel; ops/schedules.hpp.

#include "mcp/schema.hpp"
#include "mcp/tool_list.hpp"
#include "mcp/tool_support.hpp"
#include "ops/schedule_arguments.hpp"
#include "ops/schedules.hpp"

namespace mailroom::mcp {

namespace {

// A scheduled message may reach at most as many mailboxes as a send of this server.
void bound_reach(ops::SendRequest& message, const ToolCall& call)
{
  if (!call.env.allow_broadcast) {
    message.max_reach = k_max_send_mailboxes;
    message.reach_hint = "name fewer recipients, or start the server with 'mailroom mcp --allow-broadcast'";
  }
}

Result<ToolOutput> run_schedule_add(ToolCall& call)
{
  TRY_ASSIGN(auto request, ops::schedule_add_request_of(call.args));
  if (auto* later = std::get_if<ops::SendLaterRequest>(&request)) {
    bound_reach(later->send, call);
    TRY_ASSIGN(ops::SendLaterResult result, ops::send_later(call.session, *later));
    // One shape for both kinds: the schedule, whose rule is {"at": …}.
    return output_of(ops::ScheduleResult{std::move(result.schedule), result.replayed, 0});
  }
  auto& add = std::get<ops::ScheduleAddRequest>(request);
  bound_reach(add.message, call);
  TRY_ASSIGN(const ops::ScheduleResult result, ops::schedule_add(call.session, add));
  return output_of(result);
}

Result<ToolOutput> run_schedule_list(ToolCall& call)
{
  ops::ScheduleListRequest request;
  request.all = arg_flag(call.args, "all");
  request.ended = arg_flag(call.args, "ended");
  TRY_ASSIGN(ops::ScheduleListResult result, ops::schedule_list(call.session, request));
  return whole_list_output(
      call, std::move(result), [](ops::ScheduleListResult & r) -> auto& { return r.schedules; });
}

Result<ToolOutput> run_schedule_cancel(ToolCall& call)
{
  ops::ScheduleChangeRequest request;
  request.kind = mail::ScheduleChange::Kind::cancel;
  request.names = arg_strings(call.args, "name");
  request.and_open = arg_flag(call.args, "and_open");
  TRY_ASSIGN(const ops::ScheduleChangeResult result, ops::schedule_change(call.session, request));
  return output_of(result);
}

json schedule_add_input()
{
  return ops::schedule_add_arguments();
}

json schedule_list_input()
{
  return schema::input(json{{"all", schema::boolean("every mailbox's schedules, not only yours")},
                            {"ended", schema::boolean("also canceled and finished ones")},
                            {"cursor", cursor_property()}});
}

json schedule_cancel_input()
{
  return schema::input(
      json{{"name", schema::strings("the schedule names (a one-shot's is once-…)")},
           {"and_open", schema::boolean("also cancel the open requests of earlier firings")}},
      {"name"});
}

json schedule_add_output()
{
  return schema::from_operation(ops::schedule_result_output_schema());
}

json schedule_list_output()
{
  return paged_output_schema(ops::schedule_list_output_schema());
}

json schedule_cancel_output()
{
  return schema::from_operation(ops::schedule_change_output_schema());
}

} // namespace

void add_schedule_tools(std::vector<ToolDef>& tools)
{
  tools.push_back(
      {"schedule_add",
       "Send a message later (at/in) or on a schedule (name with every or cron), from this mailbox.", false,
       schedule_add_input, schedule_add_output, run_schedule_add});
  tools.push_back({"schedule_list",
                   "This mailbox's schedules (all=true: everyone's): rule, next slot, last firing.", false,
                   schedule_list_input, schedule_list_output, run_schedule_list});
  tools.push_back({"schedule_cancel", "Cancel schedules of this mailbox by name (future firings only).",
                   false, schedule_cancel_input, schedule_cancel_output, run_schedule_cancel});
}

} // namespace mailroom::mcp
