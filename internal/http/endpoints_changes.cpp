// The POST endpoints, acting as the operator: send (the body uses the MCP send tool's argument
// names), reply, and the per-message changes with an optional "for".

#include <fmt/format.h>

#include "endpoints.hpp"
#include "ops/change.hpp"
#include "ops/requests.hpp"
#include "ops/send.hpp"

namespace mailroom::http {

using nlohmann::json;

Error bad_argument(std::string_view name, std::string_view shape)
{
  return make_error(ErrorCode::usage, fmt::format("\"{}\" must be {}", name, shape));
}

Result<std::optional<std::string>> string_arg(const json& body, const char* name)
{
  const auto it = body.find(name);
  if (it == body.end() || it->is_null()) {
    return std::optional<std::string>();
  }
  if (!it->is_string()) {
    return bad_argument(name, "a string");
  }
  return std::optional<std::string>(it->get<std::string>());
}

// A string or a list of strings.
Result<std::vector<std::string>> strings_arg(const json& body, const char* name)
{
  const auto it = body.find(name);
  std::vector<std::string> out;
  if (it == body.end() || it->is_null()) {
    return out;
  }
  if (it->is_string()) {
    out.push_back(it->get<std::string>());
    return out;
  }
  if (!it->is_array()) {
    return bad_argument(name, "a string or a list of strings");
  }
  for (const json& item : *it) {
    if (!item.is_string()) {
      return bad_argument(name, "a string or a list of strings");
    }
    out.push_back(item.get<std::string>());
  }
  return out;
}

Result<bool> flag_arg(const json& body, const char* name)
{
  const auto it = body.find(name);
  if (it == body.end() || it->is_null()) {
    return false;
  }
  if (!it->is_boolean()) {
    return bad_argument(name, "true or false");
  }
  return it->get<bool>();
}

namespace {

// What send and reply share: priority, type, ack, ttl, idempotency_key.
Result<ops::Sending> sending_args(const json& body)
{
  ops::Sending sending;
  TRY_ASSIGN(sending.priority, string_arg(body, "priority"));
  TRY_ASSIGN(sending.type, string_arg(body, "type"));
  TRY_ASSIGN(sending.ack, flag_arg(body, "ack"));
  TRY_ASSIGN(sending.ttl, string_arg(body, "ttl"));
  TRY_ASSIGN(sending.idempotency_key, string_arg(body, "idempotency_key"));
  return sending;
}

Result<std::string> body_text(const json& body, const std::optional<std::string>& subject)
{
  TRY_ASSIGN(const std::optional<std::string> text, string_arg(body, "body"));
  if (!text && !subject) {
    return make_error(ErrorCode::usage, "missing body", "give \"body\", \"subject\" or both");
  }
  return text.value_or("");
}

Result<json> send(Call& call)
{
  ops::SendRequest request;
  TRY_ASSIGN(request.to, strings_arg(call.body, "to"));
  TRY_ASSIGN(request.cc, strings_arg(call.body, "cc"));
  TRY_ASSIGN(request.subject, string_arg(call.body, "subject"));
  TRY_ASSIGN(request.body, body_text(call.body, request.subject));
  TRY_ASSIGN(request.sending, sending_args(call.body));
  TRY_ASSIGN(request.trace, string_arg(call.body, "trace"));
  request.usage = "give \"to\": a mailbox, @group or a list of them";
  return with_session(call.env, call.env.me, [&request](ops::Session& session) -> Result<json> {
    TRY_ASSIGN(const ops::SendResult result, ops::send(session, request));
    return ops::to_json(result);
  });
}

Result<json> reply(Call& call)
{
  ops::ReplyRequest request;
  request.id = call.route.id;
  TRY_ASSIGN(request.subject, string_arg(call.body, "subject"));
  TRY_ASSIGN(request.body, body_text(call.body, request.subject));
  TRY_ASSIGN(request.all, flag_arg(call.body, "all"));
  TRY_ASSIGN(request.sending, sending_args(call.body));
  return with_session(call.env, call.env.me, [&request](ops::Session& session) -> Result<json> {
    TRY_ASSIGN(const ops::ReplyResult result, ops::reply(session, request));
    return ops::to_json(result);
  });
}

mail::Change change_of(std::string_view action)
{
  if (action == "unread") {
    return mail::Change::mark_unread;
  }
  if (action == "archive") {
    return mail::Change::archive;
  }
  if (action == "unarchive") {
    return mail::Change::unarchive;
  }
  if (action == "delete") {
    return mail::Change::remove;
  }
  if (action == "ack") {
    return mail::Change::ack;
  }
  return mail::Change::mark_read;
}

Result<json> change(Call& call)
{
  ops::ChangeRequest request;
  request.ids = {call.route.id};
  request.change = change_of(call.route.action);
  TRY_ASSIGN(request.for_name, string_arg(call.body, "for"));
  return with_session(call.env, call.env.me, [&request](ops::Session& session) -> Result<json> {
    const auto report = [](const std::string&, const std::string&,
                           const Result<mail::ChangeOutcome>&) -> Result<void> { return {}; };
    TRY_ASSIGN(const ops::ChangeResult result, ops::change(session, request, report));
    return ops::to_json(result);
  });
}

// cancel (body: reason, to, for), decline and fail (reason, for), ask (question, for).
Result<json> request_action(Call& call)
{
  const std::string& action = call.route.action;
  TRY_ASSIGN(const std::optional<std::string> for_name, string_arg(call.body, "for"));
  if (action == "cancel") {
    ops::CancelRequest request;
    request.id = call.route.id;
    TRY_ASSIGN(const std::optional<std::string> reason, string_arg(call.body, "reason"));
    request.reason = reason.value_or("");
    TRY_ASSIGN(request.to, string_arg(call.body, "to"));
    request.for_name = for_name;
    return with_session(call.env, call.env.me, [&request](ops::Session& session) -> Result<json> {
      TRY_ASSIGN(const ops::CancelResult result, ops::cancel(session, request));
      return ops::to_json(result);
    });
  }
  ops::RespondRequest request;
  request.id = call.route.id;
  request.for_name = for_name;
  request.verb = action == "ask"    ? mail::RequestVerb::ask
                 : action == "fail" ? mail::RequestVerb::fail
                                    : mail::RequestVerb::decline;
  TRY_ASSIGN(const std::optional<std::string> text,
             string_arg(call.body, request.verb == mail::RequestVerb::ask ? "question" : "reason"));
  if (request.verb == mail::RequestVerb::ask && !text) {
    return make_error(ErrorCode::usage, "missing question", "give \"question\": what the sender must answer");
  }
  request.text = text.value_or("");
  return with_session(call.env, call.env.me, [&request](ops::Session& session) -> Result<json> {
    TRY_ASSIGN(const ops::RespondResult result, ops::respond(session, request));
    return ops::to_json(result);
  });
}

} // namespace

Result<json> post_change(Call& call)
{
  switch (call.route.endpoint) {
  case Endpoint::send:
    return send(call);
  case Endpoint::reply:
    return reply(call);
  case Endpoint::request:
    return request_action(call);
  default:
    return change(call);
  }
}

} // namespace mailroom::http
