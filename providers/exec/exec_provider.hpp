#pragma once

// The exec provider: any mail system behind a user script speaking Gas City's `gc mail` exec
// protocol (docs/exec-protocol.md, the script author's reference). One process
// per operation, `script <op> [<arg>]`, explicit argv, no shell; the script owns all state.
//
// Exec never guesses: an operation the script does not have is `unsupported` (exit 5) or is
// composed from operations it has (inbox --all from count and inbox), never an empty or
// "already" answer; state the script did not report is unknown, not false, so mark-read,
// mark-unread, archive and unarchive always run the script's op. Exit 2 is "nothing" only for gc's
// list ops (script.hpp). One process per command on the hot path (count, check, inbox, and read
// with a `get` that reports `read`), plus ensure-running for scripts that implement it.
//
// Per-recipient changes and reply first run `get` to find not_recipient; a script that cannot
// answer `get` skips that check. read is `get`, deliver, then `mark-read` (unless `get` reported
// the message read, and only once delivery worked); the protocol's `read`, which marks first, is
// used only when the script cannot `get`. send and reply put the subject on the wire as gc does:
// as given, empty when none was given.

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "base/result.hpp"
#include "mail/audience.hpp"
#include "mail/clock.hpp"
#include "mail/provider.hpp"
#include "mail/settings.hpp"

namespace mailroom::providers::exec {

// The registered mailboxes of a store the configuration names, read when a send needs them;
// nullopt when the configuration names no store that exists (errors: the store's).
using RegistryLoader = std::function<Result<std::optional<mail::Directory>>()>;

struct ExecOptions {
  // The FactsCache file (facts.hpp) keeping what was learned about scripts; empty: none.
  std::string facts_file;
  // A send checks its recipient against `[agents] names` and this registry, when either is
  // configured, before the script runs (unknown_recipient, exit 2); with neither, recipients are
  // only shape-checked, as gc does outside a city. Empty: no store registry.
  RegistryLoader registry;
  // The wall clock the hook's kept answers are dated by (hook_answers.cpp); null: the system's.
  // Must outlive the provider.
  const mail::Clock* clock = nullptr;
};

// Builds an exec provider running `settings.command` (execvp lookup, the caller's environment and
// working directory, plus MAILROOM_IDENTITY=`identity` when non-empty), learning into
// default_facts_path(). Spawns nothing now: `ensure-running` runs lazily before the first
// operation (unless the script is known to answer it with exit 2), `capabilities` only when an
// exit 2 must be told apart (script.hpp). Errors: usage when the command is empty.
Result<std::unique_ptr<mail::Provider>> open_exec_provider(const mail::ExecSettings& settings,
                                                           const mail::MailPolicy& policy,
                                                           const std::string& identity,
                                                           RegistryLoader registry = {},
                                                           const mail::Clock* clock = nullptr);

// The same, with explicit options (tests).
Result<std::unique_ptr<mail::Provider>> open_exec_provider(const mail::ExecSettings& settings,
                                                           const mail::MailPolicy& policy,
                                                           const std::string& identity,
                                                           const ExecOptions& options);

} // namespace mailroom::providers::exec
