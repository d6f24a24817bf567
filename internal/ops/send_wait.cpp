#include "send_wait.hpp"

#include <fmt/format.h>

#include "store_open.hpp"

namespace mailroom::ops {

Result<SendWaitResult> send_and_wait(Session& session, const SendWaitRequest& request, const SentHook& sent,
                                     const SendWaitDeliver& deliver)
{
  SendWaitResult result;
  if (request.wait_for_store) {
    TRY_ASSIGN(const StoreOpen opened, open_store_when_up(session, request.deadline, request.interrupt_fd));
    if (opened.interrupted) {
      result.interrupted = true;
      return result;
    }
  }
  TRY_ASSIGN(result.sent, send(session, request.send));
  if (sent) {
    sent(result.sent);
  }
  const std::vector<mail::SendReceipt>& receipts = result.sent.receipts;
  if (receipts.empty() || !receipts.front().stored()) {
    return result; // a send --dedup suppressed stored nothing to wait on
  }
  const mail::MessageId& id = receipts.front().message.id;
  if (receipts.size() > 1) {
    session.tell("reply_to_first_copy",
                 fmt::format("waiting only for a reply to {}, the first of {} copies", id, receipts.size()));
  }
  WaitRequest wait_request;
  wait_request.reply_to = id;
  wait_request.read = true;
  wait_request.deadline = request.deadline;
  wait_request.interrupt_fd = request.interrupt_fd;
  const SendResult& stored = result.sent;
  auto waited = wait(session, wait_request,
                     [&](const WaitResult& found) -> Result<void> { return deliver(stored, found); });
  if (!waited.ok()) {
    Error error = std::move(waited).error();
    error.message = fmt::format("sent {} but {}", id, error.message);
    return error;
  }
  result.waited = std::move(waited).value();
  return result;
}

} // namespace mailroom::ops
