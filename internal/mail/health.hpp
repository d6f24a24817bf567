#pragma once

// Delivery health and the redelivery sweep (contract "Acknowledgement and delivery health" and
// "The redelivery sweep"): the values the stores return, and the rules the stores apply — how a
// peer's figures become `stale` and an ordering, what a due delivery gets (a redelivery or its
// escalation) and what the one escalation per dark peer says. The stores only query and write.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "mail/compose.hpp"
#include "mail/duration.hpp"
#include "mail/message.hpp"
#include "mail/policy.hpp"
#include "mail/team.hpp"

namespace mailroom::mail {

// My channel to one peer, computed from the store.
struct PeerHealth {
  Mailbox peer;
  std::optional<UnixMillis> last_sent_at;    // my last message to them
  std::optional<UnixMillis> last_acked_at;   // their last ack of mine
  std::optional<UnixMillis> last_inbound_at; // their last message to me
  std::optional<UnixMillis> last_seen_at;    // their presence (last command run as them)
  std::int64_t pending_count = 0;            // mine to them awaiting ack (not expired)
  std::optional<Millis> oldest_pending_age_ms;
  std::int64_t escalated_count = 0; // mine to them that gave up and are still not acked
  bool stale = false;
  // The peer's team state (mail::team_state, never retired): from its presence and whether it
  // owes anyone an overdue delivery (`owes_overdue`, as the store counted it).
  bool owes_overdue = false;
  TeamState state = TeamState::idle;
};

struct PeersResult {
  Mailbox mailbox;
  std::vector<PeerHealth> peers; // stale first, then by name
  std::int64_t stale_count = 0;
};

// `peers` of `mailbox` as the contract shows them: `stale` set by is_stale under `stale_after`,
// each peer's `state` at `now` under `presence_after`, stale peers first, then by name, and
// stale_count.
PeersResult finish_peers(const Mailbox& mailbox, std::vector<PeerHealth> peers, Millis stale_after,
                         UnixMillis now, Millis presence_after);

// One sender × recipient pair that exchanged mail (`peers --all`), computed from the store.
struct PairHealth {
  Mailbox sender;
  Mailbox recipient;
  std::int64_t pending_count = 0; // awaiting the recipient's ack, unexpired
  std::optional<Millis> oldest_pending_age_ms;
  std::int64_t escalated_count = 0; // gave up, still not acked
  std::int64_t failed_count = 0;    // escalated, or expired before an ack (sent's `failed`)
  bool stale = false;               // is_stale, as for peers
  std::optional<UnixMillis> last_sent_at;
  std::optional<UnixMillis> last_acked_at;
};

struct PairsResult {
  std::vector<PairHealth> pairs; // stale first, then by sender, then by recipient
  std::int64_t stale_count = 0;
};

// `peers --all` as the contract shows it: `stale` under `stale_after`, the order and stale_count.
PairsResult finish_pairs(std::vector<PairHealth> pairs, Millis stale_after);

struct SweepRequest {
  bool dry_run = false;
  std::optional<Mailbox> from; // only deliveries sent by this mailbox
  std::size_t batch = 500;     // deliveries per transaction
};

struct Redelivery {
  MessageId id;
  Mailbox sender;
  Mailbox recipient;
  std::string subject;      // for the [notify] command's {subject}
  std::int64_t attempt = 0; // 1 for the first redelivery
  std::int64_t of = 0;      // max_attempts
};

struct Escalation {
  Mailbox sender;
  Mailbox peer;
  std::vector<MessageId> ids; // the messages to `peer` that gave up in this pass
  Mailbox escalate_to;
  std::optional<MessageId> escalation_id; // the escalation message (none in a dry run)
};

// What a pass did (or, in a dry run, would do). Everything listed was committed.
struct SweepReport {
  bool enabled = false;
  bool dry_run = false;
  std::vector<Redelivery> redelivered;
  std::vector<Escalation> escalated;
  // The pass stopped at this error after committing what is listed (a later batch failed); the
  // caller reports both.
  std::optional<Error> stopped;
};

// A delivery the sweep found due: awaiting ack, not expired, next_attempt_at at or before now.
struct DueDelivery {
  MessageId id;
  Mailbox sender;
  Mailbox recipient;
  std::string subject;
  ThreadId thread_id;
  UnixMillis created_at = 0;
  std::int64_t attempts = 0; // redeliveries so far
};

// True when a due delivery with `attempts` redeliveries behind it is redelivered once more;
// false when it has used its attempts and is escalated.
bool redeliver_again(std::int64_t attempts, const RedeliverySchedule& schedule);

// What a redelivery writes: the attempt it is and when the delivery is due next (after
// redelivery k at `now`, the next is due first_after × backoff^k later: next_attempt_at()).
struct RedeliveryStep {
  std::int64_t attempt = 0;
  UnixMillis next_attempt_at = 0;
};
RedeliveryStep redelivery_step(std::int64_t attempts, UnixMillis now, const RedeliverySchedule& schedule);

// The mailbox that hears about `sender`'s messages that gave up: the sender itself when
// escalate_to is "sender", else that mailbox.
Mailbox escalation_recipient(const Mailbox& sender, const RedeliverySchedule& schedule);

// A peer that gave up on some of one sender's messages in this pass.
struct DarkPeer {
  Mailbox sender;
  Mailbox peer;
  std::vector<DueDelivery> gave_up;         // oldest first
  std::optional<UnixMillis> peer_last_seen; // the peer's presence, when known
};

// The one escalation message about `dark`: from the reserved mailbox `mailroom` to
// escalation_recipient(), type escalation (never ack-tracked), high priority, naming every message
// that gave up (the list is cut, saying how many more, only if it would pass the body cap).
// Its subject is "<peer> is dark: N message(s) not acknowledged" only when the peer is not seen
// (mail::is_seen under `presence_after`), else "<peer> has not acknowledged N message(s) (seen 40s ago)".
SendRequest escalation_request(const DarkPeer& dark, const RedeliverySchedule& schedule, UnixMillis now,
                               Millis presence_after = k_default_presence_after_ms);

// The policy an escalation is composed under: `policy`, except that when it goes back to the
// original sender that sender is always a valid recipient (registered or not), so an escalation
// can never fail for want of a registry entry.
MailPolicy escalation_policy(const MailPolicy& policy);

} // namespace mailroom::mail
