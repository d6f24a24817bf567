#pragma once

// The read side's typo check (contract Round 4, "No silent typo on the read side"): a mailbox a
// read names (`--from`, `--to`, the mailbox argument of inbox, sent, search, count, check, and
// `wait --from`) must be one the team knows.

#include <string_view>

#include "base/result.hpp"
#include "mail/audience.hpp"
#include "mail/policy.hpp"

namespace mailroom::mail {

// `name`, given to a read as `what` ("--from", "--to", "mailbox"), passes when it is registered
// (a retired mailbox too), a config agent, `human` or `mailroom`, or when recipients = "any".
// Errors: unknown_recipient (exit 2) with the closest known names as suggestions and a
// did-you-mean hint.
Result<void> check_read_mailbox(const Mailbox& name, std::string_view what, const Directory& directory,
                                const MailPolicy& policy);

} // namespace mailroom::mail
