#pragma once

// Send and wait for the reply, one operation for every surface that offers it (the CLI's
// `send --wait-reply`, the MCP `send` tool's `wait_reply`): the message is sent as send() sends
// it, then the first reply to it is waited for as `wait --reply-to ID --read` waits (marked read
// only once `deliver` wrote it). A wait that ends without a reply leaves the message sent.

#include <chrono>
#include <functional>
#include <optional>

#include "send.hpp"
#include "session.hpp"
#include "wait.hpp"

namespace mailroom::ops {

struct SendWaitRequest {
  SendRequest send;
  std::optional<std::chrono::steady_clock::time_point> deadline; // none: until stopped
  // Ends the wait when readable (the CLI's signal watch); -1: the session's stop token does.
  int interrupt_fd = -1;
  // A store that is down when the operation starts is waited for within `deadline` before
  // anything is sent (store_open.hpp): the CLI's, whose command may start during an outage.
  bool wait_for_store = false;
};

struct SendWaitResult {
  SendResult sent;
  // The wait, or nullopt when there was nothing to wait for: nothing was stored (a --dedup
  // suppressed every recipient), or the wait for the store was interrupted (`interrupted`).
  std::optional<WaitResult> waited;
  bool interrupted = false; // interrupted while waiting for the store: nothing was sent
};

// Called once the message is stored, before the wait (the CLI says it waits, and runs [notify]).
using SentHook = std::function<void(const SendResult& sent)>;
// Writes the reply found; it is marked read only when this succeeded.
using SendWaitDeliver = std::function<Result<void>(const SendResult& sent, const WaitResult& found)>;

// Sends, then waits for the first reply to the first stored copy (notice `reply_to_first_copy`
// when a store without whole sends stored one per recipient). Errors: send's; the wait's, as
// "sent <id> but <error>" (the message stays sent).
Result<SendWaitResult> send_and_wait(Session& session, const SendWaitRequest& request, const SentHook& sent,
                                     const SendWaitDeliver& deliver);

} // namespace mailroom::ops
