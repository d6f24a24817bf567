#pragma once

// What a send's and a reply's options decide alike (send.hpp's Sending): the priority, the
// idempotency key, and the one empty-message rule of every surface. send.cpp and reply.cpp use
// them; nothing else needs them.

#include <optional>
#include <string>

#include "base/result.hpp"
#include "mail/message.hpp"
#include "send.hpp"
#include "session.hpp"

namespace mailroom::ops {

// --urgent or --priority (a name or 0-4). Errors: usage for a bad priority, or --urgent with
// another priority.
Result<mail::Priority> resolve_priority(const Sending& sending);

// The flag's key, else $MAILROOM_IDEMPOTENCY_KEY; none when empty. Errors: usage past
// mail::k_max_idempotency_key_bytes.
Result<std::optional<std::string>> resolve_idempotency_key(const Session& session,
                                                           const std::optional<std::string>& flag);

// The one empty-message rule of every surface (contract "Three surfaces, one truth"): no subject
// (absent or empty) and an empty body is nothing to send. Errors: usage.
Result<void> refuse_empty_message(const std::optional<std::string>& subject, const std::string& body);

} // namespace mailroom::ops
