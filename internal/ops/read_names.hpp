#pragma once

// The read side's typo check for every surface (contract Round 4, "No silent typo on the read
// side"): a mailbox a read names is checked against the store's registry (mail/read_names.hpp).

#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "mail/provider.hpp"
#include "session.hpp"

namespace mailroom::ops {

// listing_target (acting.hpp) for a read (inbox, count, check, sent, search), with the typo check
// of another mailbox named. The hook (check_for_hook) uses listing_target: it stays silent.
// Errors: listing_target's, check_read_name's.
Result<mail::Mailbox> read_target(Session& session, const std::optional<std::string>& mailbox);

// The typo check of `name` (`what`: "--from", "--to", "mailbox") against the store's registry
// (mail::check_read_mailbox); nothing on a store without one. Errors: unknown_recipient (exit 2,
// with a did-you-mean), the provider's.
Result<void> check_read_name(Session& session, mail::Provider& provider, const mail::Mailbox& name,
                             std::string_view what);

} // namespace mailroom::ops
