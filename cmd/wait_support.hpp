#pragma once

// Pieces `wait`, `send --wait-reply` and `watch` share: their flags turned into a wait query,
// durations, interrupt exit codes and the found message printed as peek or read print it.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/exit_code.hpp"
#include "context.hpp"
#include "mail/waiting.hpp"

namespace mailroom::cli {

// A deadline `flag` (a duration, "--timeout") from now; nullopt when no flag was given.
// Errors: usage naming a bad duration.
Result<std::optional<std::chrono::steady_clock::time_point>>
deadline_from(const std::optional<std::string>& flag, std::string_view what);

// The type names given with --type, each resolved (a typo is a usage error with a did-you-mean).
Result<std::vector<std::string>> resolve_types(const Context& ctx, const std::vector<std::string>& types);

// The exit code of a command ended by `signal` (SIGINT 130, SIGTERM 143).
ExitCode interrupted_exit(int signal);

// Writes `message` as peek does: the header view, or under --json {"schema_version":1,<key>:…}
// plus the keys of `extra` (`key` is "message", or "reply" for send --wait-reply).
Result<void> print_found(Context& ctx, const mail::Message& message, const nlohmann::json& extra = {},
                         const std::string& key = "message");

// The keys every wait result has (contract "Waiting ends when the answer is known"): "timed_out"
// (the Round 2 boolean), "outcome" (mail::outcome_name) and "notice" (the message that ended the
// wait, as JSON, or null; `as_read`: shown as after a read).
nlohmann::json wait_result_keys(const mail::WaitOutcome& outcome, bool reply_to, bool as_read = false);

// The one stderr line (with a hint naming `status`) for a request `request` that ended without a
// reply: set aside, escalated or expired. `stays_sent`: send --wait-reply says the message stays sent.
void report_request_end(Context& ctx, const mail::WaitOutcome& outcome, const mail::MessageId& request,
                        bool stays_sent);

// How `wait` and `send --wait-reply` wait: store failures that may pass are ridden out with a
// `store_retry` warning each time (mail::wait_for).
mail::WaitSettings wait_settings(Context& ctx);

// `wait --read` without --reply-to: takes `id` for the caller (mail::Provider::take) and, when it
// got it, writes it as print_found does. False: another waiter took it first (nothing written).
Result<bool> take_found(Context& ctx, mail::Provider& provider, const mail::MessageId& id,
                        const nlohmann::json& extra = {}, const std::string& key = "message");

// Reads `id` for the caller as `read` does (printed as print_found, then marked read).
Result<void> read_found(Context& ctx, mail::Provider& provider, const mail::MessageId& id,
                        const nlohmann::json& extra = {}, const std::string& key = "message");

} // namespace mailroom::cli
