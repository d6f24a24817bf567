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

// Starts `wake-run` for the messages among `receipts` that wake someone (ops::messages_to_wake;
// `notified`: sent with --notify or --wake). Never fails: a wake that cannot start is a warning.
void start_wakes(Context& ctx, const std::vector<mail::SendReceipt>& receipts, bool notified);

// The same for the sweep's redeliveries (attempt k, only the redelivered recipient).
void start_redelivery_wakes(Context& ctx, const std::vector<mail::Redelivery>& redelivered);

} // namespace mailroom::cli
