#pragma once

// check: whether a mailbox has unread mail (the hook predicate), and the first `limit` unread
// messages in inbox order. On the hook's hot path: one store query, and none of the messages
// unless asked for. (The hook modes, --inject and --hook-format, are cmd/check.cpp's: their
// guard, budget and deadline belong to the hook path.)

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

} // namespace mailroom::ops
