#pragma once

// check: whether a mailbox has unread mail (the hook predicate), and the first `limit` unread
// messages in the hook's order (mail/hook_order.hpp). On the hook's hot path: one store query,
// and none of the messages unless asked for. The hook modes (--inject, --hook-format) fetch with
// check_for_hook; their guard, budget, deadline and the reminder's text belong to the hook path
// (cmd/commands/check.cpp, hooks/).

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "mail/views.hpp"
#include "render/table.hpp"
#include "session.hpp"

namespace mailroom::ops {

struct CheckRequest {
  std::optional<std::string> mailbox; // whose mail; default the caller (another's is a view)
  std::string limit = "3";            // as typed: a positive whole number (check_limit)
  bool messages = true;               // load the first `limit` unread messages (else only the count)
};

struct CheckResult {
  mail::Mailbox mailbox;
  // No store exists where the configuration points: it holds no mail (contract "Identity and
  // store safety"); the CLI prints nothing and exits 1.
  bool no_store = false;
  mail::CheckResult found;
  // The hook through a slow store (mail::HookCheck): when `found` is the last answer kept rather
  // than a fresh one, when the store gave it.
  std::optional<mail::UnixMillis> as_of;
  // The hook through a slow store found no answer yet (the first run ever): nothing to show.
  bool no_answer_yet = false;
};

// Errors: usage (a bad limit), those of listing_target, the provider's errors.
Result<CheckResult> check(Session& session, const CheckRequest& request);

// `text` as check's limit. Errors: usage unless a positive whole number.
Result<std::size_t> check_limit(std::string_view text);

// {"schema_version":1,"mailbox","unread","messages":[…]}
nlohmann::json to_json(const CheckResult& result);
// "N unread message(s) for NAME\n", or nothing when there is none.
text::DisplayText to_text(const CheckResult& result, const render::Style& style);
nlohmann::json check_output_schema();

// What a hook shows (check --inject, --hook-format): the first `limit` unread messages, at most
// k_max_hook_messages (more never fit in a reminder), their bodies read only as far as the
// reminder scans. A caller without an identity of its own that names no mailbox is refused
// (no_identity) and records no presence: an agent started without one would be shown the
// operator's mail, so the hook stays quiet instead.
//
// A store with the hook-check facet (exec: a script may take longer than the hook may wait) is
// asked through it when the caller can start a refresh (`start_refresh`): the answer is the
// store's own when its refresh ends by `answer_by`, else the last one kept (CheckResult::as_of),
// else nothing (the first run ever stays silent: CheckResult::no_answer_yet).
struct HookCheckRequest {
  std::optional<std::string> mailbox;
  std::size_t limit = 3; // check_limit of what was typed
  std::chrono::steady_clock::time_point answer_by = std::chrono::steady_clock::time_point::max();
  mail::StartRefresh start_refresh; // empty: ask the provider's check directly
};
inline constexpr std::size_t k_max_hook_messages = 1000;
// Errors: no_identity, those of listing_target, the provider's.
Result<CheckResult> check_for_hook(Session& session, const HookCheckRequest& request);

// The detached refresh a hook starts (check --refresh): the store's check of `mailbox` (default:
// the caller) kept for later hooks; false when another refresh of it was running (nothing done).
// Errors: unsupported on a store without the hook-check facet, the store's.
Result<bool> refresh_hook_answer(Session& session, const std::optional<std::string>& mailbox);

// check --inject --json: {"schema_version":1,"mailbox","unread","reminder"}, `reminder` the text
// the hook would print (hooks/), null when there is no mail.
nlohmann::json reminder_to_json(const CheckResult& result, const text::DisplayText& reminder);

} // namespace mailroom::ops
