#include "testing/provider_contract_request_support.hpp"

namespace mailroom::testing::contract {

MessageId send_request(Fixture& f, const Mailbox& from, std::vector<std::string> to,
                       const std::string& subject, std::optional<mail::Millis> ttl)
{
  auto request = f.request(from, std::move(to), subject, "do it");
  request.type = "task_request";
  request.ttl = ttl;
  return f.send(request).message.id;
}

Result<mail::SendReceipt> respond(Fixture& f, const Mailbox& from, const MessageId& id,
                                  mail::RequestVerb verb, const std::string& text)
{
  mail::ReplyRequest request;
  request.from = from;
  request.id = id;
  request.verb = verb;
  request.body = text;
  return reach(f.provider()).respond(request);
}

Result<mail::CancelResult> cancel(Fixture& f, const Mailbox& sender, const MessageId& id,
                                  std::optional<Mailbox> only, const std::string& reason)
{
  mail::CancelRequest request;
  request.sender = sender;
  request.id = id;
  request.only = std::move(only);
  request.reason = reason;
  return reach(f.provider()).cancel(request);
}

std::optional<mail::RequestState> request_state(Fixture& f, const Mailbox& who, const MessageId& id)
{
  return state_of(f.get(who, id)).request_state;
}

const mail::DeliveryStatus& delivery_to(const mail::StatusResult& status, const Mailbox& recipient)
{
  for (const auto& d : status.deliveries) {
    if (d.recipient == recipient) {
      return d;
    }
  }
  FAIL("no delivery to ", recipient);
  return status.deliveries.front();
}

const mail::TeamMember& team_member(const mail::TeamResult& team, const Mailbox& name)
{
  for (const mail::TeamMember& m : team.mailboxes) {
    if (m.mailbox == name) {
      return m;
    }
  }
  FAIL("no row for ", name);
  return team.mailboxes.front();
}

} // namespace mailroom::testing::contract
