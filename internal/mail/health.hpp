#pragma once

// Delivery health and the redelivery sweep (contract "Acknowledgement and delivery health").

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "mail/duration.hpp"
#include "mail/message.hpp"

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
};

struct PeersResult {
  Mailbox mailbox;
  std::vector<PeerHealth> peers; // stale first, then by name
  std::int64_t stale_count = 0;
};

struct SweepRequest {
  bool dry_run = false;
  std::optional<Mailbox> from; // only deliveries sent by this mailbox
  std::size_t batch = 500;     // deliveries per transaction
};

struct Redelivery {
  MessageId id;
  Mailbox sender;
  Mailbox recipient;
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

struct SweepReport {
  bool enabled = false;
  bool dry_run = false;
  std::vector<Redelivery> redelivered;
  std::vector<Escalation> escalated;
};

} // namespace mailroom::mail
