#pragma once

// When a request is answered without a reply (contract "Waiting ends when the answer is known"):
// a waiter for a reply stops as soon as no reply can be expected any more, not at its timeout.

#include <optional>
#include <string_view>
#include <vector>

#include "mail/message.hpp"
#include "mail/views.hpp"

namespace mailroom::mail {

// How a request ended without a reply.
enum class RequestEnd { set_aside, escalated, expired };

struct RequestEnded {
  RequestEnd end = RequestEnd::set_aside;
  std::optional<Message> notice; // the escalation that says so, when there is one
};

// Why the request `status` describes ends the wait for a reply, or nullopt while a reply can still
// come. `trace` is the request's trace (any viewer). It ends when every delivery that can answer
// (the "to" recipients, or every recipient when there is none; never the sender's own copy) is
// set aside by a watcher, escalated by the sweep, or expired. A watcher's set-aside is known by its
// set_aside_at, or by the escalation it sends about it (claims.cpp: from `mailroom`, type
// escalation, a child of the request whose body names it), which is then the notice; a watcher
// holding its escalation back (one still unread) leaves the set-aside without one. Mixed
// ends are named by the first of set_aside, escalated, expired: a worker giving up says the most.
// An acked delivery may still be followed by a reply, so it keeps the wait going.
std::optional<RequestEnded> request_end(const StatusResult& status, const std::vector<Message>& trace);

} // namespace mailroom::mail
