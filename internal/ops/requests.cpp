#include "requests.hpp"

#include <fmt/format.h>

#include "acting.hpp"
#include "errors.hpp"
#include "mail/address.hpp"
#include "render/json.hpp"
#include "schema.hpp"
#include "send.hpp"
#include "text/sanitize.hpp"
#include "text/strings.hpp"

namespace mailroom::ops {

namespace {

text::DisplayText names_line(const std::vector<mail::Mailbox>& names)
{
  return text::sanitize_line(text::join(names, ", "));
}

} // namespace

Result<CancelResult> cancel(Session& session, const CancelRequest& request)
{
  if (request.to && !mail::is_valid_mailbox(*request.to)) {
    TRY(mail::parse_address(*request.to));
    return usage_error(fmt::format("--to \"{}\" is not a mailbox", text::cap_for_echo(*request.to)),
                       "name the one recipient whose delivery to cancel");
  }
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  TRY_ASSIGN(mail::Requests * requests, mail::need(provider->facets().requests, "cancel"));
  mail::CancelRequest cancel;
  TRY_ASSIGN(cancel.id, mail::resolve_id(*provider, request.id));
  mail::Actor actor = session.actor();
  if (request.for_name) {
    TRY_ASSIGN(actor, choose_actor(session, *provider, cancel.id, request.for_name));
  }
  cancel.sender = actor.mailbox;
  cancel.acted_by = actor.acted_by == actor.mailbox ? std::string() : actor.acted_by;
  cancel.only = request.to;
  cancel.reason = request.reason;
  TRY_ASSIGN(mail::CancelResult outcome, requests->cancel(cancel));
  return CancelResult{std::move(outcome)};
}

nlohmann::json to_json(const CancelResult& done)
{
  const mail::CancelResult& result = done.outcome;
  nlohmann::json doc = render::json_document();
  doc["ok"] = true;
  doc["id"] = result.id;
  doc["canceled"] = result.canceled;
  doc["unchanged"] = nlohmann::json::array();
  for (const auto& u : result.unchanged) {
    doc["unchanged"].push_back({{"recipient", u.recipient}, {"request_state", mail::to_string(u.state)}});
  }
  doc["notice"] = result.notice ? nlohmann::json(*result.notice) : nlohmann::json(nullptr);
  return doc;
}

text::DisplayText to_text(const CancelResult& done, const render::Style& /*style*/)
{
  const mail::CancelResult& result = done.outcome;
  text::DisplayText out;
  const text::DisplayText id = text::sanitize_line(result.id);
  if (result.canceled.empty()) {
    out += text::DisplayText::format("Nothing to cancel: every delivery of {} had already ended\n", id);
  } else {
    out += text::DisplayText::format("Canceled {} for {}; sent notice {}\n", id, names_line(result.canceled),
                                     text::sanitize_line(result.notice.value_or("")));
  }
  for (const auto& u : result.unchanged) {
    out += text::DisplayText::format("Unchanged for {} ({})\n", text::sanitize_line(u.recipient),
                                     text::sanitize_line(mail::to_string(u.state)));
  }
  return out;
}

nlohmann::json cancel_output_schema()
{
  using namespace schema;
  return document({{"ok", boolean()},
                   {"id", string()},
                   {"canceled", array_of(string())},
                   {"unchanged", array_of(object({{"recipient", string()}, {"request_state", string()}}))},
                   {"notice", nullable(string())}});
}

Result<RespondResult> respond(Session& session, const RespondRequest& request)
{
  TRY_ASSIGN(mail::Provider * provider, session.provider());
  TRY_ASSIGN(mail::Requests * requests,
             mail::need(provider->facets().requests, mail::to_string(request.verb)));
  RespondResult result;
  result.verb = request.verb;
  TRY_ASSIGN(result.request, mail::resolve_id(*provider, request.id));
  TRY_ASSIGN(result.receipt, act_on(session, *provider, result.request, request.for_name,
                                    [&](const mail::Actor& actor) -> Result<mail::SendReceipt> {
                                      mail::ReplyRequest answer;
                                      answer.seen_via = actor.seen_via;
                                      answer.from = actor.mailbox;
                                      answer.id = result.request;
                                      answer.body = request.text;
                                      answer.verb = request.verb;
                                      return requests->respond(answer);
                                    }));
  return result;
}

nlohmann::json to_json(const RespondResult& result)
{
  nlohmann::json doc = to_json(ReplyResult{result.request, result.receipt}); // the notice is a reply
  doc["request_state"] = mail::to_string(mail::state_after(result.verb));
  return doc;
}

text::DisplayText to_text(const RespondResult& result, const render::Style& /*style*/)
{
  const mail::Message& notice = result.receipt.message;
  const text::DisplayText request = text::sanitize_line(result.request);
  const text::DisplayText id = text::sanitize_line(notice.id);
  const text::DisplayText to = recipients_summary(notice, result.receipt.recipients);
  switch (result.verb) {
  case mail::RequestVerb::ask:
    return text::DisplayText::format("Asked {} about {} \u2014 sent question {}\n", to, request, id);
  case mail::RequestVerb::fail:
    return text::DisplayText::format("Failed {} \u2014 sent message {} to {}\n", request, id, to);
  case mail::RequestVerb::decline:
    break;
  }
  return text::DisplayText::format("Declined {} \u2014 sent message {} to {}\n", request, id, to);
}

nlohmann::json respond_output_schema()
{
  nlohmann::json doc = reply_output_schema();
  doc["properties"]["request_state"] = schema::string();
  doc["required"].push_back("request_state");
  return doc;
}

} // namespace mailroom::ops
