#include "mail/request.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include <fmt/format.h>

#include "text/strings.hpp"

namespace mailroom::mail {

namespace {

constexpr std::array<std::pair<RequestState, std::string_view>, 8> k_state_names = {{
    {RequestState::submitted, "submitted"},
    {RequestState::working, "working"},
    {RequestState::input_required, "input_required"},
    {RequestState::completed, "completed"},
    {RequestState::failed, "failed"},
    {RequestState::rejected, "rejected"},
    {RequestState::canceled, "canceled"},
    {RequestState::expired, "expired"},
}};

Error already(const Message& original, const Mailbox& replier, RequestState state)
{
  return make_error(ErrorCode::conflict,
                    fmt::format("the request {} is already {} for {}", original.id, to_string(state),
                                text::cap_for_echo(replier)),
                    "a request's state only moves forward; see it with: mailroom status " + original.id);
}

} // namespace

std::string_view to_string(RequestState state)
{
  for (const auto& [value, name] : k_state_names) {
    if (value == state) {
      return name;
    }
  }
  return "submitted";
}

std::optional<RequestState> parse_request_state(std::string_view text)
{
  for (const auto& [value, name] : k_state_names) {
    if (name == text) {
      return value;
    }
  }
  return std::nullopt;
}

bool is_terminal(RequestState state)
{
  return !is_open(state);
}

bool is_open(RequestState state)
{
  return state == RequestState::submitted || state == RequestState::working ||
         state == RequestState::input_required;
}

RequestState effective_request_state(RequestState stored, bool expired)
{
  if (expired && (stored == RequestState::submitted || stored == RequestState::working)) {
    return RequestState::expired;
  }
  return stored;
}

bool request_open(const StatusResult& status)
{
  return std::any_of(status.deliveries.begin(), status.deliveries.end(),
                     [](const DeliveryStatus& d) { return d.request_state && is_open(*d.request_state); });
}

bool is_owed(std::optional<RequestState> request, AckState ack)
{
  if (request) {
    return *request == RequestState::submitted || *request == RequestState::working;
  }
  return ack == AckState::awaiting_ack || ack == AckState::escalated;
}

std::string_view to_string(RequestVerb verb)
{
  switch (verb) {
  case RequestVerb::decline:
    return "decline";
  case RequestVerb::ask:
    return "ask";
  case RequestVerb::fail:
    return "fail";
  }
  return "decline";
}

bool is_request_notice(std::string_view type)
{
  return type == k_input_required_type || type == k_declined_type || type == k_failed_type ||
         type == k_canceled_type;
}

std::string_view notice_type(RequestVerb verb)
{
  switch (verb) {
  case RequestVerb::decline:
    return k_declined_type;
  case RequestVerb::ask:
    return k_input_required_type;
  case RequestVerb::fail:
    return k_failed_type;
  }
  return k_declined_type;
}

std::optional<RequestVerb> verb_of_notice(std::string_view type)
{
  for (const RequestVerb verb : {RequestVerb::decline, RequestVerb::ask, RequestVerb::fail}) {
    if (notice_type(verb) == type) {
      return verb;
    }
  }
  return std::nullopt;
}

RequestState state_after(RequestVerb verb)
{
  switch (verb) {
  case RequestVerb::decline:
    return RequestState::rejected;
  case RequestVerb::ask:
    return RequestState::input_required;
  case RequestVerb::fail:
    return RequestState::failed;
  }
  return RequestState::rejected;
}

std::string notice_subject(std::string_view type, std::string_view original_subject)
{
  std::string_view prefix = "Declined: ";
  if (type == k_input_required_type) {
    prefix = "Question: ";
  } else if (type == k_failed_type) {
    prefix = "Failed: ";
  } else if (type == k_canceled_type) {
    prefix = "Canceled: ";
  }
  if (original_subject.substr(0, prefix.size()) == prefix) {
    return std::string(original_subject);
  }
  return std::string(prefix) + std::string(original_subject);
}

Result<void> check_verb(RequestVerb verb, const Message& original, const Mailbox& replier)
{
  if (!original.state) {
    return make_error(ErrorCode::not_recipient, fmt::format("mailbox \"{}\" is not a recipient of {}",
                                                            text::cap_for_echo(replier), original.id));
  }
  if (!original.state->request_state) {
    return make_error(ErrorCode::usage,
                      fmt::format("{} expects no reply: it is a {}, not a request", original.id,
                                  text::cap_for_echo(original.type)),
                      fmt::format("only a request (a type that expects a reply) can be declined, asked "
                                  "about or failed; answer it with: mailroom reply {}",
                                  original.id));
  }
  const RequestState state = *original.state->request_state;
  if (is_terminal(state)) {
    return already(original, replier, state);
  }
  if (verb == RequestVerb::ask && state == RequestState::input_required) {
    return make_error(ErrorCode::conflict,
                      fmt::format("the request {} already waits for an answer from {}", original.id,
                                  text::cap_for_echo(original.from)),
                      "its sender answers by replying to the question; see it with: mailroom thread " +
                          original.id);
  }
  return {};
}

std::vector<RequestMove> reply_moves(const Message& original, const Mailbox& replier,
                                     std::optional<RequestVerb> verb)
{
  std::vector<RequestMove> moves;
  if (original.state && original.state->request_state) {
    if (verb) {
      moves.push_back({RequestMove::Kind::respond, original.id, replier, state_after(*verb)});
    } else {
      moves.push_back({RequestMove::Kind::complete, original.id, replier, RequestState::completed});
    }
  }
  // Any answer to a question, by one who received it, lets its asker go on with the request.
  if (original.state && original.type == k_input_required_type && original.reply_to) {
    moves.push_back({RequestMove::Kind::resume, *original.reply_to, original.from, RequestState::working});
  }
  return moves;
}

Result<CancelPlan> plan_cancel(const StatusResult& status, const CancelRequest& request)
{
  const Message& m = status.message;
  if (m.from != request.sender) {
    return make_error(ErrorCode::not_sender,
                      fmt::format("mailbox \"{}\" did not send {}", text::cap_for_echo(request.sender), m.id),
                      fmt::format("only its sender ({}) can cancel it; an operator uses: mailroom cancel {} "
                                  "--for {}",
                                  text::cap_for_echo(m.from), m.id, text::cap_for_echo(m.from)));
  }
  const bool request_kept = std::any_of(status.deliveries.begin(), status.deliveries.end(),
                                        [](const DeliveryStatus& d) { return d.request_state.has_value(); });
  if (!request_kept) {
    return make_error(
        ErrorCode::usage,
        fmt::format("{} expects no reply: it is a {}, not a request", m.id, text::cap_for_echo(m.type)),
        "only a message whose type expects a reply can be canceled");
  }
  CancelPlan plan;
  bool named = false;
  for (const DeliveryStatus& d : status.deliveries) {
    if (request.only && d.recipient != *request.only) {
      continue;
    }
    named = true;
    if (!d.request_state) {
      continue;
    }
    if (is_open(*d.request_state)) {
      plan.closed.push_back(d.recipient);
    } else {
      plan.unchanged.push_back({d.recipient, *d.request_state});
    }
  }
  if (request.only && !named) {
    return make_error(
        ErrorCode::not_recipient,
        fmt::format("mailbox \"{}\" is not a recipient of {}", text::cap_for_echo(*request.only), m.id),
        "see its recipients with: mailroom status " + m.id);
  }
  return plan;
}

} // namespace mailroom::mail
