#pragma once

// The exec provider: any mail system behind a user script speaking Gas City's `gc mail` exec
// protocol (gc-mail.md §7). One process per operation, `script <op> [<arg>]`, explicit argv, no
// shell; the script owns all state. Exit 2 means "empty" for lists and count and `unsupported`
// for everything else (never a silent success). Per-recipient changes (mark-read, mark-unread,
// archive, unarchive) and reply first run `get` to find not_recipient and `already`; a script
// that cannot answer `get` skips that check. read is `get`, deliver, then `mark-read` (only for an
// unread recipient, only once delivery worked); the protocol's `read`, which marks first, is used
// only when the script cannot `get`. The wire Message may carry `archived` (a mailroom
// extension); without it archived state is invisible and unarchive always reports a change.

#include <memory>
#include <string>

#include "mail/provider.hpp"
#include "base/result.hpp"
#include "mail/settings.hpp"

namespace mailroom::providers::exec {

// Builds an exec provider running `settings.command` (execvp lookup, the caller's environment and
// working directory, plus MAILROOM_IDENTITY=`identity` when non-empty). Spawns nothing now:
// `ensure-running` and `capabilities` run once, lazily, before the first operation.
// Errors: usage when the command is empty.
Result<std::unique_ptr<mail::Provider>> open_exec_provider(const mail::ExecSettings& settings,
                                                           const mail::MailPolicy& policy, const std::string& identity);

} // namespace mailroom::providers::exec
