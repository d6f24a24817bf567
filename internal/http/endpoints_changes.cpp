// The POST endpoints, acting as the operator: send (the body uses the MCP send tool's argument
// names), reply, and the per-message changes with an optional "for".

#include <fmt/format.h>

#include "endpoints.hpp"
#include "ops/arguments.hpp"
#include "ops/change.hpp"
#include "ops/send.hpp"
#include "ops/send_arguments.hpp"

namespace mailroom::http {

using nlohmann::json;
using ops::args::arg_flag;
using ops::args::arg_string;
using ops::args::arg_strings;

namespace {

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

} // namespace

json send_args()
{
  json properties = ops::sending_properties();
  properties["to"] = ops::args::strings("recipients: mailboxes, @group, @all");
  properties["cc"] = ops::args::strings("copies");
  properties["trace"] = ops::args::string("the trace to join (a trace id)");
  properties["dedup"] =
      ops::args::string("skip recipients that still have your unarchived message with this key");
  properties["supersede"] =
      ops::args::string("archive recipients' earlier unread messages of yours with this key");
  return ops::args::input(std::move(properties));
}

Result<json> send(Call& call)
{
  ops::SendRequest request;
  request.to = arg_strings(call.args, "to");
  request.cc = arg_strings(call.args, "cc");
  request.subject = arg_string(call.args, "subject");
  request.body = arg_string(call.args, "body").value_or(""); // none with no subject: ops refuses it
  request.sending = ops::sending_of(call.args);
  request.trace = arg_string(call.args, "trace");
  request.dedup = arg_string(call.args, "dedup");
  request.supersede = arg_string(call.args, "supersede");
  request.usage = "give \"to\": a mailbox, @group or a list of them";
  return with_session(call.env, call.env.me, call.request.method,
                      [&request](ops::Session& session) -> Result<json> {
                        TRY_ASSIGN(const ops::SendResult result, ops::send(session, request));
                        return ops::to_json(result);
                      });
}

json reply_args()
{
  json properties = ops::sending_properties();
  properties["all"] = ops::args::boolean("reply to everyone on it");
  return ops::args::input(std::move(properties));
}

Result<json> reply(Call& call)
{
  ops::ReplyRequest request;
  request.id = call.route.param("id");
  request.subject = arg_string(call.args, "subject");
  request.body = arg_string(call.args, "body").value_or(""); // none with no subject: ops refuses it
  request.all = arg_flag(call.args, "all");
  request.sending = ops::sending_of(call.args);
  return with_session(call.env, call.env.me, call.request.method,
                      [&request](ops::Session& session) -> Result<json> {
                        TRY_ASSIGN(const ops::ReplyResult result, ops::reply(session, request));
                        return ops::to_json(result);
                      });
}

json change_args()
{
  return ops::args::input(json{{"for", ops::args::string("act on this recipient's delivery")}});
}

Result<json> change(Call& call)
{
  ops::ChangeRequest request;
  request.ids = {call.route.param("id")};
  const std::string_view path = call.route.spec->path; // messages/{id}/ACTION
  request.change = change_of(path.substr(path.rfind('/') + 1));
  request.for_name = arg_string(call.args, "for");
  return with_session(
      call.env, call.env.me, call.request.method, [&request](ops::Session& session) -> Result<json> {
        const auto report = [](const std::string&, const std::string&,
                               const Result<mail::ChangeOutcome>&) -> Result<void> { return {}; };
        TRY_ASSIGN(const ops::ChangeResult result, ops::change(session, request, report));
        return ops::to_json(result);
      });
}

} // namespace mailroom::http
