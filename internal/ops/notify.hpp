#pragma once

// The [notify] fan-out: the config's notify command run after a message is stored (send and
// reply --notify, a firing of a schedule made with --notify) or redelivered (sweep). Every
// surface calls it here; warnings are the session's notices.

#include <string>
#include <vector>

#include "mail/provider.hpp"
#include "mail/schedules.hpp"
#include "session.hpp"

namespace mailroom::ops {

// `argv` with {to} (the recipients, comma-joined), {from}, {id} and {subject} replaced in every
// element (never a shell).
std::vector<std::string> expand_notify_argv(const std::vector<std::string>& argv,
                                            const mail::SendReceipt& receipt);

// Runs the configured notify command for `receipt`: once, or, when its argv holds {to} and there
// are several recipients, once per recipient (at most 8 at a time; the send waits at most 2 s for
// them, then stops those still running, with notice `notify_failed`). Never fails: no command
// configured (notice `no_notify_command`), or the command failing (`notify_failed`), is a notice
// (the message is already stored).
void notify_recipients(const Session& session, const mail::SendReceipt& receipt);

// The same command for a delivery the sweep redelivered ({to} the recipient, {from} the original
// sender). Nothing when no command is configured; its failure is a notice.
void notify_redelivery(const Session& session, const mail::Redelivery& redelivery);

// The same command for every message a schedule made with --notify fired in `report` (nothing
// for a dry run).
void notify_fired(const Session& session, const mail::FireReport& report);

} // namespace mailroom::ops
