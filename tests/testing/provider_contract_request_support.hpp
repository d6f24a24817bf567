#pragma once

// What the contract cases about the life of a request share (provider_contract_requests.cpp,
// provider_contract_request_life.cpp, and the schedules' overlap in provider_contract_firing.cpp);
// not for other tests.

#include <optional>
#include <string>
#include <vector>

#include "mail/request.hpp"
#include "testing/provider_contract_support.hpp"

namespace mailroom::testing::contract {

// Sends a task_request from `from` to `to` (with `ttl`) and returns its id; requires success.
MessageId send_request(Fixture& f, const Mailbox& from, std::vector<std::string> to,
                       const std::string& subject = "task", std::optional<mail::Millis> ttl = std::nullopt);
// `from` answering request `id` with `verb` (Requests::respond), `text` as the body.
Result<mail::SendReceipt> respond(Fixture& f, const Mailbox& from, const MessageId& id,
                                  mail::RequestVerb verb, const std::string& text = "");
// `sender` canceling request `id` (Requests::cancel), for `only` when given.
Result<mail::CancelResult> cancel(Fixture& f, const Mailbox& sender, const MessageId& id,
                                  std::optional<Mailbox> only = std::nullopt, const std::string& reason = "");
// `who`'s request state of `id` as get() shows it; requires that `who` has a delivery.
std::optional<mail::RequestState> request_state(Fixture& f, const Mailbox& who, const MessageId& id);
// The row of `recipient` in `status`; fails the case when there is none.
const mail::DeliveryStatus& delivery_to(const mail::StatusResult& status, const Mailbox& recipient);
// The row of `name` in `team`; fails the case when there is none.
const mail::TeamMember& team_member(const mail::TeamResult& team, const Mailbox& name);

} // namespace mailroom::testing::contract
