#pragma once

// Starting wake work away from the command that caused it (contract, decisions after review,
// "Timing"): after a send's, a reply's or a redelivery's `Sent message` line is out, this program
// runs again as `wake-run` in a session of its own with /dev/null for stdin, stdout and stderr, so
// the send is never slowed or failed by a wake. What wakes is decided in ops/wake.hpp.

#include <optional>
#include <string>
#include <vector>

#include "cli/context.hpp"
#include "mail/health.hpp"
#include "mail/views.hpp"

namespace mailroom::cli {

// Starts `wake-run` for the messages among `receipts` whose recorded wake this process can run now
// (ops::messages_to_wake). Never fails: a wake that cannot start is a warning.
void start_wakes(Context& ctx, const std::vector<mail::SendReceipt>& receipts);

// Starts a `wake-run` pass (every due wake), after a schedule run fired mail.
void start_wake_pass(Context& ctx);

// The same for the sweep's redeliveries (attempt k, only the redelivered recipient).
void start_redelivery_wakes(Context& ctx, const std::vector<mail::Redelivery>& redelivered);

} // namespace mailroom::cli
