#include "mail/health.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "mail/ack.hpp"
#include "mail/hook_order.hpp"
#include "mail/limits.hpp"
#include "mail/team.hpp"
#include "text/strings.hpp"

namespace mailroom::mail {

namespace {

constexpr std::size_t k_subject_in_list_bytes = 80;
// Room kept under the body cap for the lines after the list.
constexpr std::size_t k_body_reserve_bytes = 4096;

// An age for people: minutes at least, no seconds past the first hour.
std::string rough_age(Millis age)
{
  if (age < k_minute_ms) {
    return "less than a minute";
  }
  const Millis unit = age < k_day_ms ? k_minute_ms : k_hour_ms;
  return format_duration(age / unit * unit);
}

} // namespace

PeersResult finish_peers(const Mailbox& mailbox, std::vector<PeerHealth> peers, Millis stale_after,
                         UnixMillis now, Millis presence_after)
{
  PeersResult result;
  result.mailbox = mailbox;
  for (PeerHealth& peer : peers) {
    peer.stale = is_stale(peer.oldest_pending_age_ms, peer.escalated_count, stale_after);
    result.stale_count += peer.stale ? 1 : 0;
    TeamMember member;
    member.last_seen_at = peer.last_seen_at;
    member.overdue_count = peer.owes_overdue ? 1 : 0;
    peer.state = team_state(member, now, presence_after);
  }
  std::stable_sort(peers.begin(), peers.end(), [](const PeerHealth& a, const PeerHealth& b) {
    if (a.stale != b.stale) {
      return a.stale;
    }
    return a.peer < b.peer;
  });
  result.peers = std::move(peers);
  return result;
}

PairsResult finish_pairs(std::vector<PairHealth> pairs, Millis stale_after)
{
  PairsResult result;
  for (PairHealth& pair : pairs) {
    pair.stale = is_stale(pair.oldest_pending_age_ms, pair.escalated_count, stale_after);
    result.stale_count += pair.stale ? 1 : 0;
  }
  std::stable_sort(pairs.begin(), pairs.end(), [](const PairHealth& a, const PairHealth& b) {
    if (a.stale != b.stale) {
      return a.stale;
    }
    if (a.sender != b.sender) {
      return a.sender < b.sender;
    }
    return a.recipient < b.recipient;
  });
  result.pairs = std::move(pairs);
  return result;
}

bool redeliver_again(std::int64_t attempts, const RedeliverySchedule& schedule)
{
  return attempts < schedule.max_attempts;
}

RedeliveryStep redelivery_step(std::int64_t attempts, UnixMillis now, const RedeliverySchedule& schedule)
{
  RedeliveryStep step;
  step.attempt = attempts + 1;
  step.next_attempt_at = next_attempt_at(now, step.attempt, schedule);
  return step;
}

Mailbox escalation_recipient(const Mailbox& sender, const RedeliverySchedule& schedule)
{
  return schedule.escalate_to == "sender" ? sender : schedule.escalate_to;
}

// An age rounded for a subject line: "40s", "12m", "3h", "2d".
std::string short_age(Millis age)
{
  const Millis unit = age < k_minute_ms ? 1000
                      : age < k_hour_ms ? k_minute_ms
                      : age < k_day_ms  ? k_hour_ms
                                        : k_day_ms;
  return format_duration(std::max<Millis>(age / unit, 0) * unit);
}

SendRequest escalation_request(const DarkPeer& dark, const RedeliverySchedule& schedule, UnixMillis now,
                               Millis presence_after)
{
  const std::size_t count = dark.gave_up.size();
  SendRequest request;
  request.from = std::string(k_system_sender);
  request.to = {escalation_recipient(dark.sender, schedule)};
  request.type = "escalation";
  request.priority = default_priority(request.type);
  // Dark means dark (contract "The team, as the operator sees it"): a peer seen lately is only
  // not acknowledging.
  if (is_seen(dark.peer_last_seen, now, presence_after)) {
    request.subject = fmt::format("{} has not acknowledged {} message(s) (seen {} ago)", dark.peer, count,
                                  short_age(now - *dark.peer_last_seen));
  } else {
    request.subject = fmt::format("{} is dark: {} message(s) not acknowledged", dark.peer, count);
  }

  std::string body = fmt::format(
      "{} has not acknowledged {} message(s) from {}, each redelivered {} time(s); the sweep has stopped "
      "redelivering them and marked them escalated.\n",
      dark.peer, count, dark.sender, schedule.max_attempts);
  if (!dark.gave_up.empty()) {
    UnixMillis oldest = dark.gave_up.front().created_at;
    for (const DueDelivery& d : dark.gave_up) {
      oldest = std::min(oldest, d.created_at);
    }
    body += fmt::format("The oldest was sent {} ago.\n", rough_age(now - oldest));
  }
  body += dark.peer_last_seen ? fmt::format("{} last ran a mailroom command {} ago.\n", dark.peer,
                                            rough_age(now - *dark.peer_last_seen))
                              : fmt::format("{} has never run a mailroom command.\n", dark.peer);
  body += "\n";
  std::size_t listed = 0;
  for (const DueDelivery& d : dark.gave_up) {
    std::string line = fmt::format("- {} (thread {}): {}\n", d.id, d.thread_id,
                                   text::cap_for_echo(d.subject, k_subject_in_list_bytes));
    if (body.size() + line.size() + k_body_reserve_bytes > k_max_body_bytes) {
      break;
    }
    body += line;
    ++listed;
  }
  if (listed < count) {
    body += fmt::format("- ... and {} more (mailroom peers {} shows the count)\n", count - listed, dark.peer);
  }
  body += fmt::format(
      "\nA reply or `mailroom ack <id>` from {0} still acknowledges any of them. "
      "`mailroom --as {1} peers {0}` shows this channel's health, `mailroom status <id>` each delivery.\n",
      dark.peer, dark.sender);
  request.body = std::move(body);
  return request;
}

MailPolicy escalation_policy(const MailPolicy& policy)
{
  MailPolicy out = policy;
  if (policy.redelivery.escalate_to == "sender") {
    out.recipients = RecipientPolicy::any;
  }
  return out;
}

} // namespace mailroom::mail
