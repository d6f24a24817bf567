// The schedule endpoints (contract "Schedules", decisions "HTTP"), acting as the operator:
//   GET  schedules[?all=1][&ended=1][&mailbox=NAME]      the list (ops::schedule_list)
//   POST schedules                                       add: the MCP schedule_add tool's arguments
//                                                        (ops/schedule_arguments.hpp), "for" an
//                                                        owner, "notify"; at/in: a one-shot
//   GET  schedules/{from}/{name}[?limit=N]               show, with its history
//   POST schedules/{from}/{name}/{pause|resume|cancel|run-now}  ({"and_open":true} for cancel)

#include "endpoints.hpp"
#include "ops/arguments.hpp"
#include "ops/schedule_arguments.hpp"
#include "ops/schedule_firing.hpp"
#include "ops/schedules.hpp"

namespace mailroom::http {

using nlohmann::json;
namespace args = ops::args;

json schedule_list_args()
{
  return args::input(json{{"all", args::string("1: every mailbox's schedules")},
                          {"ended", args::string("1: canceled and finished ones too")},
                          {"mailbox", args::string("this mailbox's schedules")}});
}

Result<json> schedule_list(Call& call)
{
  ops::ScheduleListRequest request;
  request.all = query(call, "all").value_or("") == "1";
  request.ended = query(call, "ended").value_or("") == "1";
  request.for_name = query(call, "mailbox");
  return with_session(
      call.env, call.env.me, call.request.method, [&request](ops::Session& session) -> Result<json> {
        TRY_ASSIGN(const ops::ScheduleListResult result, ops::schedule_list(session, request));
        return ops::to_json(result);
      });
}

json schedule_add_args()
{
  return ops::schedule_add_arguments(
      json{{"for", args::string("the schedule's owner (recurring only; default the operator)")},
           {"notify", args::boolean("run each recipient's notify command at every firing")}});
}

Result<json> schedule_add(Call& call)
{
  TRY_ASSIGN(auto request, ops::schedule_add_request_of(call.args));
  const std::optional<std::string> owner = args::arg_string(call.args, "for");
  const bool notify = args::arg_flag(call.args, "notify");
  if (auto* later = std::get_if<ops::SendLaterRequest>(&request)) {
    if (owner) {
      return make_error(ErrorCode::usage,
                        "a one-shot is sent as the operator; \"for\" is for recurring schedules");
    }
    later->notify = notify;
    return with_session(call.env, call.env.me, call.request.method,
                        [later](ops::Session& session) -> Result<json> {
                          TRY_ASSIGN(const ops::SendLaterResult result, ops::send_later(session, *later));
                          return ops::to_json(result);
                        });
  }
  auto& add = std::get<ops::ScheduleAddRequest>(request);
  add.for_name = owner;
  add.notify = notify;
  add.message.sending.idempotency_key.reset();
  return with_session(call.env, call.env.me, call.request.method,
                      [&add](ops::Session& session) -> Result<json> {
                        TRY_ASSIGN(const ops::ScheduleResult result, ops::schedule_add(session, add));
                        return ops::to_json(result);
                      });
}

json schedule_show_args()
{
  return args::input(json{{"limit", args::string("at most this many firings of its history")}});
}

Result<json> schedule_show(Call& call)
{
  ops::ScheduleShowRequest request;
  request.name = call.route.param("name");
  request.for_name = call.route.param("from");
  TRY_ASSIGN(const std::optional<std::size_t> limit, query_count(call, "limit"));
  request.limit = limit.value_or(request.limit);
  return with_session(
      call.env, call.env.me, call.request.method, [&request](ops::Session& session) -> Result<json> {
        TRY_ASSIGN(const ops::ScheduleShowResult result, ops::schedule_show(session, request));
        return ops::to_json(result);
      });
}

json schedule_cancel_args()
{
  return args::input(json{{"and_open", args::boolean("also cancel the open requests of earlier firings")}});
}

namespace {

Result<json> change_schedule(Call& call, mail::ScheduleChange::Kind kind)
{
  ops::ScheduleChangeRequest request;
  request.kind = kind;
  request.names = {call.route.param("name")};
  request.for_name = call.route.param("from");
  request.and_open = args::arg_flag(call.args, "and_open");
  return with_session(
      call.env, call.env.me, call.request.method, [&request](ops::Session& session) -> Result<json> {
        TRY_ASSIGN(const ops::ScheduleChangeResult result, ops::schedule_change(session, request));
        return ops::to_json(result);
      });
}

} // namespace

Result<json> schedule_pause(Call& call)
{
  return change_schedule(call, mail::ScheduleChange::Kind::pause);
}

Result<json> schedule_resume(Call& call)
{
  return change_schedule(call, mail::ScheduleChange::Kind::resume);
}

Result<json> schedule_cancel(Call& call)
{
  return change_schedule(call, mail::ScheduleChange::Kind::cancel);
}

Result<json> schedule_run_now(Call& call)
{
  const ops::RunNowRequest request{call.route.param("name"), call.route.param("from")};
  return with_session(call.env, call.env.me, call.request.method,
                      [&request](ops::Session& session) -> Result<json> {
                        TRY_ASSIGN(const ops::FireResult result, ops::schedule_run_now(session, request));
                        return ops::to_json(result);
                      });
}

} // namespace mailroom::http
