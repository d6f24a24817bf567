#include "mail/request_end.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "mail/request.hpp"

namespace mailroom::mail {

namespace {

// The watch escalation in `trace` saying `recipient`'s watcher set `request` aside, if any: a
// child of the request whose body names it (claims.cpp: "- <id> from ...").
const Message* set_aside_notice(const Message& request, const Mailbox& recipient,
                                const std::vector<Message>& trace)
{
  const std::string pair = "Watch of " + recipient + " with handler ";
  const std::string named = "\n- " + request.id + " from ";
  for (const Message& m : trace) {
    if (m.from == k_system_sender && m.type == "escalation" &&
        m.trace.parent_span_id == request.trace.span_id && m.body.rfind(pair, 0) == 0 &&
        m.body.find(named) != std::string::npos) {
      return &m;
    }
  }
  return nullptr;
}

// The newest notice of `type` from `from` answering `request` in `trace`.
const Message* notice_of(const Message& request, std::string_view type, const Mailbox& from,
                         const std::vector<Message>& trace)
{
  const Message* found = nullptr;
  for (const Message& m : trace) {
    if (m.type == type && m.from == from && m.reply_to == request.id) {
      found = &m; // oldest first: the last one is the newest
    }
  }
  return found;
}

// How one delivery has ended, or nullopt while it can still answer; `completed` ends it without
// an outcome of its own.
struct DeliveryEnd {
  std::optional<RequestEnd> end;
  const Message* notice = nullptr;
};

std::optional<DeliveryEnd> delivery_end(const Message& request, const DeliveryStatus& d,
                                        const std::vector<Message>& trace)
{
  const Message* aside = set_aside_notice(request, d.recipient, trace);
  if (d.set_aside_at || aside) {
    return DeliveryEnd{RequestEnd::set_aside, aside};
  }
  if (!d.request_state) {
    if (d.ack_state == AckState::escalated) {
      return DeliveryEnd{RequestEnd::escalated, nullptr};
    }
    if (request.expired || d.ack_state == AckState::failed) {
      return DeliveryEnd{RequestEnd::expired, nullptr};
    }
    return std::nullopt;
  }
  switch (*d.request_state) {
  case RequestState::input_required:
    return DeliveryEnd{RequestEnd::input_required,
                       notice_of(request, k_input_required_type, d.recipient, trace)};
  case RequestState::rejected:
    return DeliveryEnd{RequestEnd::rejected, notice_of(request, k_declined_type, d.recipient, trace)};
  case RequestState::failed:
    return DeliveryEnd{RequestEnd::failed, notice_of(request, k_failed_type, d.recipient, trace)};
  case RequestState::canceled:
    return DeliveryEnd{RequestEnd::canceled, notice_of(request, k_canceled_type, request.from, trace)};
  case RequestState::expired:
    return DeliveryEnd{RequestEnd::expired, nullptr};
  case RequestState::completed:
    return DeliveryEnd{std::nullopt, nullptr};
  case RequestState::submitted:
  case RequestState::working:
    break;
  }
  if (d.ack_state == AckState::escalated) {
    return DeliveryEnd{RequestEnd::escalated, nullptr};
  }
  return std::nullopt;
}

} // namespace

std::string_view to_string(RequestEnd end)
{
  switch (end) {
  case RequestEnd::input_required:
    return "input_required";
  case RequestEnd::rejected:
    return "rejected";
  case RequestEnd::failed:
    return "failed";
  case RequestEnd::set_aside:
    return "set_aside";
  case RequestEnd::canceled:
    return "canceled";
  case RequestEnd::escalated:
    return "escalated";
  case RequestEnd::expired:
    return "expired";
  }
  return "set_aside";
}

std::optional<RequestEnded> request_end(const StatusResult& status, const std::vector<Message>& trace)
{
  const Message& request = status.message;
  const bool any_to =
      std::any_of(status.deliveries.begin(), status.deliveries.end(),
                  [&](const DeliveryStatus& d) { return d.kind == "to" && d.recipient != request.from; });
  constexpr std::size_t k_ends = static_cast<std::size_t>(RequestEnd::expired) + 1;
  std::array<bool, k_ends> present{};
  std::array<const Message*, k_ends> notices{};
  bool counted = false;
  for (const DeliveryStatus& d : status.deliveries) {
    if (d.recipient == request.from || (any_to && d.kind != "to")) {
      continue;
    }
    counted = true;
    const std::optional<DeliveryEnd> ended = delivery_end(request, d, trace);
    if (!ended) {
      return std::nullopt; // this one can still answer
    }
    if (ended->end) {
      const auto at = static_cast<std::size_t>(*ended->end);
      present[at] = true;
      notices[at] = notices[at] != nullptr ? notices[at] : ended->notice;
    }
  }
  if (!counted) {
    return std::nullopt;
  }
  for (std::size_t at = 0; at < k_ends; ++at) {
    if (!present[at]) {
      continue;
    }
    const auto end = static_cast<RequestEnd>(at);
    if (notices[at] != nullptr) {
      return RequestEnded{end, *notices[at]};
    }
    if (end == RequestEnd::escalated) {
      // The sweep's escalation about the silent peer, when it is in the request's trace.
      for (const Message& m : trace) {
        if (m.from == k_system_sender && m.type == "escalation" && m.created_at >= request.created_at) {
          return RequestEnded{end, m};
        }
      }
    }
    return RequestEnded{end, std::nullopt};
  }
  return std::nullopt; // every one completed: its reply is what ends the wait
}

} // namespace mailroom::mail
