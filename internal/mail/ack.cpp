#include "mail/ack.hpp"

#include <cmath>
#include <limits>

namespace mailroom::mail {

bool is_ack_tracked(const MessageType& type, bool ack_flag, AckPolicy policy)
{
  switch (policy) {
  case AckPolicy::never:
    return false;
  case AckPolicy::always:
    return type.name != "escalation";
  case AckPolicy::typed:
    return type.name != "escalation" && (type.expects_reply || ack_flag);
  }
  return false;
}

UnixMillis next_attempt_at(UnixMillis since, std::int64_t attempts_done, const RedeliverySchedule& schedule)
{
  const double wait = static_cast<double>(schedule.first_after) *
                      std::pow(schedule.backoff, static_cast<double>(attempts_done));
  // Far-future waits (a huge backoff) saturate instead of overflowing.
  constexpr double k_max_wait = 100.0 * 365 * 24 * 3600 * 1000;
  return since + static_cast<UnixMillis>(std::min(wait, k_max_wait));
}

AckState effective_ack_state(AckState stored, bool expired)
{
  if (expired && (stored == AckState::awaiting_ack || stored == AckState::escalated)) {
    return AckState::failed;
  }
  return stored;
}

bool is_stale(std::optional<Millis> oldest_pending_age, std::int64_t escalated_count, Millis stale_after)
{
  return escalated_count > 0 || (oldest_pending_age && *oldest_pending_age > stale_after);
}

ReplyAck reply_ack(const Message& original, const Mailbox& replier)
{
  return ReplyAck{replier, original.thread_id, original.from, original.created_at, original.id};
}

} // namespace mailroom::mail
