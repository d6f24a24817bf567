#pragma once

// A watcher's escalations (contract "Dark means dark"; `mailroom watch` holds one of these): each delivery it
// sets aside is held for its escalation's recipient until no escalation of the watcher's (mailbox, handler
// argv) pair is still unread by that recipient; then one escalation names every delivery held for them. One
// failing handler thus reaches the operator once, not once per message.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "mail/claims.hpp"
#include "mail/provider.hpp"

namespace mailroom::ops {

class HeldEscalations {
public:
  HeldEscalations(mail::Mailbox mailbox, const std::vector<std::string>& argv,
                  const mail::RedeliverySchedule& redelivery);

  // Holds `set_aside` for its escalation's recipient; nullopt when it gets none (it came from
  // `mailroom`: no escalation about an escalation).
  std::optional<mail::Mailbox> hold(mail::SetAside set_aside);

  // What became of one recipient's held deliveries.
  struct Outcome {
    mail::Mailbox recipient;
    std::vector<mail::MessageId> ids;       // the deliveries named (sent) or still held
    std::optional<mail::SendReceipt> sent;  // the escalation naming them
    std::optional<mail::MessageId> held_by; // the pair's unread escalation that holds them back
    std::optional<Error> error;             // looking or sending failed: still held
  };

  // For each recipient with held deliveries: sends one escalation naming them all, unless an
  // escalation of the pair is still unread by that recipient. Nothing when nothing is held.
  std::vector<Outcome> release(mail::Provider& provider);

  bool empty() const { return m_held.empty(); }
  // Every recipient's held deliveries, as release() would report them held.
  std::vector<Outcome> held() const;

private:
  // The pair's escalation still unread in `recipient`'s inbox; nullopt when there is none.
  Result<std::optional<mail::MessageId>> unread_escalation(mail::Provider& provider,
                                                           const mail::Mailbox& recipient);

  mail::Mailbox m_mailbox;
  std::vector<std::string> m_argv;
  std::string m_pair_line;
  const mail::RedeliverySchedule& m_redelivery;
  std::map<mail::Mailbox, std::vector<mail::SetAside>> m_held;
};

} // namespace mailroom::ops
