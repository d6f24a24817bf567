#pragma once

// The mail rules a workspace chooses (from mailroom.toml): who may be addressed, which deliveries
// are ack-tracked, the redelivery schedule, groups and types. Filled by config/, read by compose
// and the stores; no TOML here.

#include <map>
#include <string>
#include <vector>

#include "mail/duration.hpp"
#include "mail/message.hpp"
#include "mail/types.hpp"

namespace mailroom::mail {

// [mail] recipients: may a send name a mailbox that is not registered?
enum class RecipientPolicy { registered, any };
// [delivery] ack: which deliveries are ack-tracked.
enum class AckPolicy { typed, always, never };
// [agents] register: does a send register an unknown sender?
enum class RegisterPolicy { explicit_only, on_send };

inline constexpr Millis k_default_stale_after_ms = 30 * k_minute_ms;
// [delivery] presence_after: a mailbox whose last command is at most this old is seen.
inline constexpr Millis k_default_presence_after_ms = 30 * k_minute_ms;
inline constexpr Millis k_default_first_after_ms = 10 * k_minute_ms;
inline constexpr double k_default_backoff = 2.0;
inline constexpr int k_default_max_attempts = 4;

// [delivery.redelivery]: when the sweep re-surfaces an unacknowledged delivery and when it gives up.
struct RedeliverySchedule {
  bool enabled = false;
  Millis first_after = k_default_first_after_ms;
  double backoff = k_default_backoff;
  int max_attempts = k_default_max_attempts;
  std::string escalate_to = "sender"; // "sender" or a mailbox
};

struct MailPolicy {
  RecipientPolicy recipients = RecipientPolicy::registered;
  AckPolicy ack = AckPolicy::typed;
  RegisterPolicy register_policy = RegisterPolicy::explicit_only;
  Millis stale_after = k_default_stale_after_ms;
  Millis presence_after = k_default_presence_after_ms;
  RedeliverySchedule redelivery;
  TypeRegistry types;
  std::map<std::string, std::vector<Mailbox>> groups; // @name → members
  std::vector<Mailbox> config_agents;                 // [agents] names: always known mailboxes
  std::string id_prefix = "mr";
};

} // namespace mailroom::mail
