// Schedules (contract "Schedules"): schedule_add (a recurring schedule of this mailbox, or a
// one-shot with `at`/`in`, as send --at; both answer the schedule), schedule_list and
// schedule_cancel; ops/schedules.hpp.

#include "mcp/schema.hpp"
#include "mcp/tool_list.hpp"
#include "mcp/tool_support.hpp"
#include "ops/schedules.hpp"

namespace mailroom::mcp {

namespace {

ops::SendRequest scheduled_message_of(const ToolCall& call)
{
  ops::SendRequest request;
  request.to = arg_strings(call.args, "to");
  request.cc = arg_strings(call.args, "cc");
  request.subject = arg_string(call.args, "subject");
  request.body = arg_string(call.args, "body").value_or("");
  request.sending.priority = arg_string(call.args, "priority");
  request.sending.type = arg_string(call.args, "type");
  request.sending.ack = arg_flag(call.args, "ack");
  request.sending.ttl = arg_string(call.args, "ttl");
  request.usage = "give \"to\": a mailbox, @group or a list of them";
  if (!call.env.allow_broadcast) {
    request.max_reach = k_max_send_mailboxes;
    request.reach_hint = "name fewer recipients, or start the server with 'mailroom mcp --allow-broadcast'";
  }
  return request;
}

Result<ToolOutput> run_schedule_add(ToolCall& call)
{
  if (!arg_string(call.args, "body") && !arg_string(call.args, "subject")) {
    return usage("missing body", "give \"body\", \"subject\" or both");
  }
  const auto at = arg_string(call.args, "at");
  const auto in = arg_string(call.args, "in");
  if (at || in) {
    if (call.args.contains("name") || call.args.contains("every") || call.args.contains("cron")) {
      return usage("a one-shot (at, in) has no name, every or cron",
                   "give either at/in, or name with every/cron");
    }
    ops::SendLaterRequest request{scheduled_message_of(call), at, in, arg_string(call.args, "tz"), false};
    request.send.sending.idempotency_key = arg_string(call.args, "idempotency_key");
    TRY_ASSIGN(ops::SendLaterResult result, ops::send_later(call.session, request));
    // One shape for both kinds: the schedule, whose rule is {"at": …}.
    return output_of(ops::ScheduleResult{std::move(result.schedule), result.replayed, 0});
  }
  ops::ScheduleAddRequest request;
  request.name = arg_string(call.args, "name").value_or("");
  request.rule.every = arg_string(call.args, "every");
  request.rule.cron = arg_string(call.args, "cron");
  request.rule.tz = arg_string(call.args, "tz");
  request.rule.start = arg_string(call.args, "start");
  request.rule.until = arg_string(call.args, "until");
  request.rule.catch_up = arg_string(call.args, "catch_up");
  request.rule.overlap = arg_string(call.args, "overlap");
  request.message = scheduled_message_of(call);
  TRY_ASSIGN(const ops::ScheduleResult result, ops::schedule_add(call.session, request));
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
  return schema::input(
      json{
          {"name", schema::string("the schedule's name (recurring; unique among yours)")},
          {"every", schema::string("a slot every DUR, e.g. 1h (or give cron)")},
          {"cron", schema::string("a cron expression, e.g. \"0 9 * * mon-fri\" or @daily")},
          {"at", schema::string("send once at this time instead (RFC 3339, YYYY-MM-DD HH:MM or HH:MM)")},
          {"in", schema::string("send once after this long instead, e.g. 90m")},
          {"tz", schema::string("the zone of the rule and times (IANA, e.g. Europe/Berlin)")},
          {"start", schema::string("no slot before this time")},
          {"until", schema::string("no slot after this time")},
          {"catch_up", schema::enumeration("after downtime (default latest)", {"latest", "skip"})},
          {"overlap", schema::enumeration("while the last request is open (default skip)", {"skip", "send"})},
          {"to", schema::strings("recipients: mailboxes, @group, @all")},
          {"cc", schema::strings("copies")},
          {"subject", schema::string("the subject (default: the body's first line)")},
          {"body", schema::string("the message text")},
          {"type", schema::string("the message type (default cron_task; message for at/in)")},
          {"priority",
           schema::enumeration("priority (default normal)", {"urgent", "high", "normal", "low", "backlog"})},
          {"ttl", schema::string("each message expires this long after its slot (default: the period)")},
          {"ack", schema::boolean("ask the recipients to acknowledge each message")},
          {"idempotency_key", schema::string("at/in: a retry with the same key schedules nothing twice")}},
      {"to"});
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
                   schedule_list_input, schedule_list_output, run_schedule_list, false});
  tools.push_back({"schedule_cancel", "Cancel schedules of this mailbox by name (future firings only).",
                   false, schedule_cancel_input, schedule_cancel_output, run_schedule_cancel});
}

} // namespace mailroom::mcp
