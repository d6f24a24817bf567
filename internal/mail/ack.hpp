#pragma once

// When a delivery is ack-tracked, when a reply acks it, when the sweep looks at it again, and when
// a peer is stale (contract "Acknowledgement and delivery health"). The stores apply these
// decisions; they do not make them.

#include <cstdint>
#include <optional>

#include "mail/duration.hpp"
#include "mail/message.hpp"
#include "mail/policy.hpp"
#include "mail/types.hpp"

namespace mailroom::mail {

// True when deliveries of a message of `type` sent with `ack_flag` (send --ack) are tracked under
// `policy`: typed = the type expects a reply or --ack; always = every type but escalation;
// never = nothing.
bool is_ack_tracked(const MessageType& type, bool ack_flag, AckPolicy policy);

// When the sweep should next look at a tracked delivery. `since` is the send time when
// `attempts_done` is 0, else the time of redelivery number `attempts_done`; the wait is
// first_after × backoff^attempts_done.
UnixMillis next_attempt_at(UnixMillis since, std::int64_t attempts_done, const RedeliverySchedule& schedule);

// What a stored ack state reads as: awaiting and escalated deliveries of an expired message read
// as failed.
AckState effective_ack_state(AckState stored, bool expired);

// A peer is stale when my oldest delivery to it awaiting ack is older than `stale_after`, or when
// any of mine to it gave up and is still not acked.
bool is_stale(std::optional<Millis> oldest_pending_age, std::int64_t escalated_count, Millis stale_after);

// What a reply acks, applied in the reply's own transaction: the replier's delivery of the replied
// message in any state, and every earlier delivery to the replier in the same thread from the
// replied message's sender that is still awaiting ack or escalated. Acked is never undone.
struct ReplyAck {
  Mailbox recipient;       // the replier
  ThreadId thread_id;      // the thread of the replied message
  Mailbox original_sender; // the replied message's sender
  UnixMillis through = 0;  // deliveries of messages created at or before this
  MessageId replied;       // the replied message itself
};

// The ReplyAck for `replier` answering `original`.
ReplyAck reply_ack(const Message& original, const Mailbox& replier);

} // namespace mailroom::mail
