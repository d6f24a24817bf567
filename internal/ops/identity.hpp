#pragma once

// The identity guard of every surface that acts as a mailbox (the CLI, `mailroom mcp`, `mailroom
// serve`): a typo in --as or $MAILROOM_IDENTITY is an error, never a new empty mailbox.

#include "base/result.hpp"
#include "config/discovery.hpp"
#include "mail/policy.hpp"
#include "mail/provider.hpp"

namespace mailroom::ops {

// `me` must be registered, reserved, or listed in [agents] names; `registers_on_use` (a `send` as
// an unknown sender when [agents] register = "on-send") lets it pass. Errors: unknown_recipient
// naming where the identity came from, with suggestions and the `agents add` hint.
Result<void> guard_identity(mail::Provider& provider, const config::Identity& me,
                            const mail::MailPolicy& policy, bool registers_on_use);

} // namespace mailroom::ops
