#pragma once

// digest: the one line `mailroom mcp --digest` adds to every tool result when the caller has
// unread mail (contract "MCP, round 2" and "Round 4: decisions after review", MCP):
// "mailroom: 3 unread (1 request awaits your reply)". The facts are check's (the unread count
// and, of it, the deliveries that owe the caller's reply or ack); the line is built here once.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mail/message.hpp"

#include "base/result.hpp"
#include "session.hpp"

namespace mailroom::ops {

struct DigestResult {
  std::int64_t unread = 0;
  std::int64_t awaiting = 0; // of them, owing the caller's reply (or ack)
};

// The caller's own counts; records no presence and changes nothing. `taken`: messages the call is
// handing over as read that the store still counts unread (a wait's take is marked read once its
// answer is written), left out of the counts. Errors: the provider's.
Result<DigestResult> digest(Session& session, const std::vector<mail::MessageId>& taken = {});

// "mailroom: N unread" with " (K request(s) await(s) your reply)" when K > 0, through the
// output gate (one line, no newline); nullopt when nothing is unread.
std::optional<std::string> digest_line(const DigestResult& result);

} // namespace mailroom::ops
