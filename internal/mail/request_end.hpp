#pragma once

// When a request is answered without a reply (contract "Waiting ends when the answer is known",
// as Round 4's decisions change it): a waiter for a reply stops as soon as no reply can be
// expected any more, not at its timeout.

#include <optional>
#include <string_view>
#include <vector>

#include "mail/message.hpp"
#include "mail/views.hpp"

namespace mailroom::mail {

// How a request ended without a reply, in the order a mixed end is named by: the first present.
enum class RequestEnd { input_required, rejected, failed, set_aside, canceled, escalated, expired };

struct RequestEnded {
  RequestEnd end = RequestEnd::set_aside;
  std::optional<Message> notice; // the message that says so, when there is one
};

// Why the request `status` describes ends the wait for a reply, or nullopt while a reply can still
// come. `trace` is the request's trace (any viewer). The deliveries that can answer are the "to"
// recipients (every recipient when there is none), never the sender's own copy. It ends when each
// of them has ended: its request_state is terminal or input_required (the recipient asked the
// sender a question), a watcher set it aside, or the sweep escalated it; a completed one ends
// nothing by itself (its reply is what the waiter finds). The outcome is the first RequestEnd
// present; a set-aside delivery (its request_state failed, or a delivery without one) reports
// set_aside. A delivery without a request_state (a message that expects no reply, a store that
// keeps none) ends only by a set-aside, an escalation or its expiry, as before Round 4; an acked
// one may still be followed by a reply, so it keeps the wait going.
//
// The notice: the recipient's question (input_required), decline or failure (rejected, failed),
// the sender's cancel notice (canceled), or the escalation about it (set_aside: claims.cpp's, a
// child of the request whose body names it; escalated: the sweep's); a watcher holding its
// escalation back (one still unread) leaves a set-aside without one.
std::optional<RequestEnded> request_end(const StatusResult& status, const std::vector<Message>& trace);

// The contract's name of `end` ("input_required", "rejected", ..., "set_aside").
std::string_view to_string(RequestEnd end);

} // namespace mailroom::mail
