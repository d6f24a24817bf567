#include "mail/request_end.hpp"

#include <algorithm>
#include <string>

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

} // namespace

std::optional<RequestEnded> request_end(const StatusResult& status, const std::vector<Message>& trace)
{
  const Message& request = status.message;
  const bool any_to =
      std::any_of(status.deliveries.begin(), status.deliveries.end(),
                  [&](const DeliveryStatus& d) { return d.kind == "to" && d.recipient != request.from; });
  bool counted = false;
  bool escalated = false;
  bool set_aside = false; // a watcher gave up on one: its escalation, when found, is the notice
  const Message* notice = nullptr;
  for (const DeliveryStatus& d : status.deliveries) {
    if (d.recipient == request.from || (any_to && d.kind != "to")) {
      continue;
    }
    counted = true;
    const Message* aside = set_aside_notice(request, d.recipient, trace);
    if (d.set_aside_at || aside) {
      set_aside = true;
      notice = notice ? notice : aside;
    } else if (d.ack_state == AckState::escalated) {
      escalated = true;
    } else if (!request.expired && d.ack_state != AckState::failed) {
      return std::nullopt; // this one can still answer
    }
  }
  if (!counted) {
    return std::nullopt;
  }
  if (set_aside) {
    return notice ? RequestEnded{RequestEnd::set_aside, *notice}
                  : RequestEnded{RequestEnd::set_aside, std::nullopt};
  }
  if (escalated) {
    // The sweep's escalation about the silent peer, when it is in the request's trace.
    for (const Message& m : trace) {
      if (m.from == k_system_sender && m.type == "escalation" && m.created_at >= request.created_at) {
        return RequestEnded{RequestEnd::escalated, m};
      }
    }
    return RequestEnded{RequestEnd::escalated, std::nullopt};
  }
  return RequestEnded{RequestEnd::expired, std::nullopt};
}

} // namespace mailroom::mail
