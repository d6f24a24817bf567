#pragma once

// Who receives a send (address expansion, @all, groups, registry checks) and who a reply goes to.
// The one place these rules live; compose.hpp builds records from them.

#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "mail/message.hpp"
#include "mail/policy.hpp"

namespace mailroom::mail {

// The registry as the store holds it at the moment of the send (read inside the write
// transaction, so @all is fixed at send time).
struct Directory {
  std::vector<Mailbox> active;  // registered and not retired, sorted
  std::vector<Mailbox> retired; // sorted
};

// Whether `sorted` (one of Directory's lists) holds `name`.
bool sorted_contains(const std::vector<Mailbox>& sorted, const Mailbox& name);

// The recipients of a send after expansion.
struct Audience {
  std::vector<Mailbox> to; // to wins over cc; no duplicates
  std::vector<Mailbox> cc;
  std::vector<std::string> addressed_to; // the to and cc addresses as written, deduplicated
  bool broadcast = false;                // @all was among them
};

// Expands `to` and `cc` (groups from the policy, @all from `directory`) and checks each mailbox
// against the registry (registered, reserved or a config agent) unless recipients = "any".
// `directory` is null for a provider without a registry: then @all is unsupported and mailboxes are
// only shape-checked. Errors: invalid_recipient, unknown_recipient (with suggestions, and saying
// when a mailbox was retired), usage (no recipients), unsupported.
Result<Audience> resolve_audience(const Mailbox& from, const std::vector<std::string>& to,
                                  const std::vector<std::string>& cc, const Directory* directory,
                                  const MailPolicy& policy);

// The recipients of a reply by `replier` to `original`: its sender; a sender replying to her own
// message writes to its recipients; with `reply_all`, everyone on it except the replier.
// Errors: not_recipient when the replier neither sent nor received `original`; usage when
// reply --all would reach more than k_reply_all_confirm_above mailboxes without `confirmed`.
Result<Audience> reply_audience(const Message& original, const Mailbox& replier, bool reply_all,
                                bool confirmed);

// The note for a `read` by `reader` of a message it sent and does not receive: such a read only
// shows it (contract "Gas City, both ways"): `you sent <id>; bob's copy is unchanged (use --for
// bob)`, or `bob's and carol's copies are unchanged (use --for NAME)`. nullopt for a recipient,
// or for a reader who is not its sender.
std::optional<std::string> sender_read_note(const Message& message, const Mailbox& reader);

} // namespace mailroom::mail
