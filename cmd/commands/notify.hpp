#pragma once

// send/reply --notify: runs the config's [notify] command after a message is stored.

#include <string>
#include <vector>

#include "cli/context.hpp"
#include "mail/provider.hpp"

namespace mailroom::cli {

// `argv` with {to} (the recipients, comma-joined), {from}, {id} and {subject} replaced in every
// element (never a shell).
std::vector<std::string> expand_notify_argv(const std::vector<std::string>& argv,
                                            const mail::SendReceipt& receipt);

// Runs the configured notify command for `receipt`: once, or, when its argv holds {to} and there
// are several recipients, once per recipient (at most 8 at a time; the send waits at most 2 s for
// them, then stops those still running, with a warning). Never fails: no command configured, or the
// command failing, is a warning on stderr (the message is already stored).
void notify_recipients(Context& ctx, const mail::SendReceipt& receipt);

// The same command for a delivery the sweep redelivered ({to} the recipient, {from} the original
// sender). Nothing when no command is configured; its failure is a warning.
void notify_redelivery(Context& ctx, const mail::Redelivery& redelivery);

} // namespace mailroom::cli
