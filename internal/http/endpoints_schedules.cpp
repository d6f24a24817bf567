// The schedule endpoints (contract "Schedules", decisions "HTTP"), acting as the operator:
//   GET  schedules[?all=1][&ended=1][&mailbox=NAME]      the list (ops::schedule_list)
//   POST schedules                                       add: the MCP schedule_add tool's argument
//                                                        names, "for" an owner; at/in: a one-shot
//   GET  schedules/{from}/{name}[?limit=N]               show, with its history
//   POST schedules/{from}/{name}/{pause|resume|cancel|run-now}  ({"and_open":true} for cancel)

#include "endpoints.hpp"
#include "ops/schedule_firing.hpp"
#include "ops/schedules.hpp"

namespace mailroom::http {

namespace {

using nlohmann::json;

Result<ops::SendRequest> message_args(const json& body)
{
  ops::SendRequest request;
  TRY_ASSIGN(request.to, strings_arg(body, "to"));
  TRY_ASSIGN(request.cc, strings_arg(body, "cc"));
  TRY_ASSIGN(request.subject, string_arg(body, "subject"));
  TRY_ASSIGN(const std::optional<std::string> text, string_arg(body, "body"));
  if (!text && !request.subject) {
    return make_error(ErrorCode::usage, "missing body", "give \"body\", \"subject\" or both");
  }
  request.body = text.value_or("");
  TRY_ASSIGN(request.sending.priority, string_arg(body, "priority"));
  TRY_ASSIGN(request.sending.type, string_arg(body, "type"));
  TRY_ASSIGN(request.sending.ack, flag_arg(body, "ack"));
  TRY_ASSIGN(request.sending.ttl, string_arg(body, "ttl"));
  TRY_ASSIGN(request.sending.idempotency_key, string_arg(body, "idempotency_key"));
  request.usage = "give \"to\": a mailbox, @group or a list of them";
  return request;
}

Result<json> list(Call& call)
{
  ops::ScheduleListRequest request;
  request.all = query(call, "all").value_or("") == "1";
  request.ended = query(call, "ended").value_or("") == "1";
  request.for_name = query(call, "mailbox");
  return with_session(call.env, call.env.me, [&request](ops::Session& session) -> Result<json> {
    TRY_ASSIGN(const ops::ScheduleListResult result, ops::schedule_list(session, request));
    return ops::to_json(result);
  });
}

Result<json> add(Call& call)
{
  const json& body = call.body;
  TRY_ASSIGN(ops::SendRequest message, message_args(body));
  TRY_ASSIGN(const std::optional<std::string> owner, string_arg(body, "for"));
  TRY_ASSIGN(const std::optional<std::string> at, string_arg(body, "at"));
  TRY_ASSIGN(const std::optional<std::string> in, string_arg(body, "in"));
  TRY_ASSIGN(const std::optional<std::string> tz, string_arg(body, "tz"));
  TRY_ASSIGN(const bool notify, flag_arg(body, "notify"));
  if (at || in) {
    if (owner) {
      return make_error(ErrorCode::usage,
                        "a one-shot is sent as the operator; \"for\" is for recurring schedules");
    }
    ops::SendLaterRequest request{std::move(message), at, in, tz, notify};
    return with_session(call.env, call.env.me, [&request](ops::Session& session) -> Result<json> {
      TRY_ASSIGN(const ops::SendLaterResult result, ops::send_later(session, request));
      return ops::to_json(result);
    });
  }
  ops::ScheduleAddRequest request;
  TRY_ASSIGN(const std::optional<std::string> name, string_arg(body, "name"));
  request.name = name.value_or("");
  request.for_name = owner;
  TRY_ASSIGN(request.rule.every, string_arg(body, "every"));
  TRY_ASSIGN(request.rule.cron, string_arg(body, "cron"));
  request.rule.tz = tz;
  TRY_ASSIGN(request.rule.start, string_arg(body, "start"));
  TRY_ASSIGN(request.rule.until, string_arg(body, "until"));
  TRY_ASSIGN(request.rule.catch_up, string_arg(body, "catch_up"));
  TRY_ASSIGN(request.rule.overlap, string_arg(body, "overlap"));
  request.message = std::move(message);
  request.message.sending.idempotency_key.reset();
  request.notify = notify;
  return with_session(call.env, call.env.me, [&request](ops::Session& session) -> Result<json> {
    TRY_ASSIGN(const ops::ScheduleResult result, ops::schedule_add(session, request));
    return ops::to_json(result);
  });
}

Result<json> show(Call& call)
{
  ops::ScheduleShowRequest request;
  request.name = call.route.name;
  request.for_name = call.route.id;
  TRY_ASSIGN(const std::optional<std::size_t> limit, query_count(call, "limit"));
  request.limit = limit.value_or(request.limit);
  return with_session(call.env, call.env.me, [&request](ops::Session& session) -> Result<json> {
    TRY_ASSIGN(const ops::ScheduleShowResult result, ops::schedule_show(session, request));
    return ops::to_json(result);
  });
}

Result<json> act(Call& call)
{
  const std::string& action = call.route.action;
  if (action == "run-now") {
    const ops::RunNowRequest request{call.route.name, call.route.id};
    return with_session(call.env, call.env.me, [&request](ops::Session& session) -> Result<json> {
      TRY_ASSIGN(const ops::FireResult result, ops::schedule_run_now(session, request));
      return ops::to_json(result);
    });
  }
  ops::ScheduleChangeRequest request;
  request.kind = action == "pause"    ? mail::ScheduleChange::Kind::pause
                 : action == "resume" ? mail::ScheduleChange::Kind::resume
                                      : mail::ScheduleChange::Kind::cancel;
  request.names = {call.route.name};
  request.for_name = call.route.id;
  TRY_ASSIGN(request.and_open, flag_arg(call.body, "and_open"));
  return with_session(call.env, call.env.me, [&request](ops::Session& session) -> Result<json> {
    TRY_ASSIGN(const ops::ScheduleChangeResult result, ops::schedule_change(session, request));
    return ops::to_json(result);
  });
}

} // namespace

Result<json> schedules(Call& call)
{
  switch (call.route.endpoint) {
  case Endpoint::schedule:
    return show(call);
  case Endpoint::schedule_action:
    return act(call);
  default:
    return call.body.is_null() ? list(call) : add(call);
  }
}

} // namespace mailroom::http
