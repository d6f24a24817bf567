#pragma once

// Riding out a failing store (contract "Several hosts": `wait`, `watch` and `send --wait-reply`
// reconnect with backoff and resume): which failures may pass, and how long to pause between tries.

#include <string_view>

#include "base/result.hpp"
#include "mail/duration.hpp"

namespace mailroom::mail {

// The first pause after a store failure, doubling after each failure in a row up to the last.
inline constexpr Millis k_store_retry_first_ms = 500;
inline constexpr Millis k_store_retry_max_ms = 30 * k_second_ms;

// Error::reason of a store that was deleted or replaced under a waiter (another file is at its path
// now): the waiter's connection can never see new mail there, so it ends instead of retrying.
inline constexpr std::string_view k_store_replaced = "store_replaced";

// True when `error` may pass by itself: a store failure (a lost or refused connection, a server
// restarting, a store locked past its busy timeout, an I/O error) other than a replaced store.
bool store_may_recover(const Error& error);

// True when a store that could not be opened may open by itself later, so that a command that
// waits (`wait`, `send --wait-reply`, `watch`) started then waits for it: a server that does not
// answer, refuses or is starting or stopping (Error::reason k_reason_unreachable, in
// base/reasons.hpp), or a store locked past its busy timeout (timeout). A store that is not there,
// a bad URL or a refused login is not waited for.
bool store_may_come_up(const Error& open_error);

// The pause after `previous` (0: none yet): k_store_retry_first_ms, then twice the previous one,
// at most k_store_retry_max_ms.
Millis next_store_retry(Millis previous);

} // namespace mailroom::mail
