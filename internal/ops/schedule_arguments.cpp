#include "schedule_arguments.hpp"

#include "ops/arguments.hpp"

namespace mailroom::ops {

namespace args = ops::args;
using nlohmann::json;

json schedule_add_arguments(const json& added)
{
  json properties{
      {"name", args::string("the schedule's name (recurring; unique among yours)")},
      {"every", args::string("a slot every DUR, e.g. 1h (or give cron)")},
      {"cron", args::string("a cron expression, e.g. \"0 9 * * mon-fri\" or @daily")},
      {"at", args::string("send once at this time instead (RFC 3339, YYYY-MM-DD HH:MM or HH:MM)")},
      {"in", args::string("send once after this long instead, e.g. 90m")},
      {"tz", args::string("the zone of the rule and times (IANA, e.g. Europe/Berlin)")},
      {"start", args::string("no slot before this time")},
      {"until", args::string("no slot after this time")},
      {"catch_up", args::enumeration("after downtime (default latest)", {"latest", "skip"})},
      {"overlap", args::enumeration("while the last request is open (default skip)", {"skip", "send"})},
      {"to", args::strings("recipients: mailboxes, @group, @all")},
      {"cc", args::strings("copies")},
      {"subject", args::string("the subject (default: the body's first line)")},
      {"body", args::string("the message text")},
      {"type", args::string("the message type (default cron_task; message for at/in)")},
      {"priority",
       args::enumeration("priority (default normal)", {"urgent", "high", "normal", "low", "backlog"})},
      {"ttl", args::string("each message expires this long after its slot (default: the period)")},
      {"ack", args::boolean("ask the recipients to acknowledge each message")},
      {"idempotency_key", args::string("at/in: a retry with the same key schedules nothing twice")}};
  properties.update(added);
  return args::input(std::move(properties), {"to"});
}

namespace {

SendRequest scheduled_message_of(const json& given)
{
  SendRequest request;
  request.to = args::arg_strings(given, "to");
  request.cc = args::arg_strings(given, "cc");
  request.subject = args::arg_string(given, "subject");
  request.body = args::arg_string(given, "body").value_or("");
  request.sending.priority = args::arg_string(given, "priority");
  request.sending.type = args::arg_string(given, "type");
  request.sending.ack = args::arg_flag(given, "ack");
  request.sending.ttl = args::arg_string(given, "ttl");
  request.usage = "give \"to\": a mailbox, @group or a list of them";
  return request;
}

} // namespace

Result<std::variant<SendLaterRequest, ScheduleAddRequest>> schedule_add_request_of(const json& given)
{
  using Out = std::variant<SendLaterRequest, ScheduleAddRequest>;
  const auto at = args::arg_string(given, "at");
  const auto in = args::arg_string(given, "in");
  if (at || in) {
    if (given.contains("name") || given.contains("every") || given.contains("cron")) {
      return make_error(ErrorCode::usage, "a one-shot (at, in) has no name, every or cron",
                        "give either at/in, or name with every/cron");
    }
    SendLaterRequest request{scheduled_message_of(given), at, in, args::arg_string(given, "tz"), false};
    request.send.sending.idempotency_key = args::arg_string(given, "idempotency_key");
    return Out(std::move(request));
  }
  ScheduleAddRequest request;
  request.name = args::arg_string(given, "name").value_or("");
  request.rule.every = args::arg_string(given, "every");
  request.rule.cron = args::arg_string(given, "cron");
  request.rule.tz = args::arg_string(given, "tz");
  request.rule.start = args::arg_string(given, "start");
  request.rule.until = args::arg_string(given, "until");
  request.rule.catch_up = args::arg_string(given, "catch_up");
  request.rule.overlap = args::arg_string(given, "overlap");
  request.message = scheduled_message_of(given);
  return Out(std::move(request));
}

} // namespace mailroom::ops
