#pragma once

// count: a mailbox's total and unread, with inbox's rules. On the hook's hot path: one store
// query, nothing else.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "mail/message.hpp"
#include "render/table.hpp"
#include "session.hpp"
#include "text/display.hpp"

namespace mailroom::ops {

struct CountRequest {
  std::optional<std::string> mailbox; // whose mail; default the caller (another's is a view)
};

struct CountResult {
  mail::Mailbox mailbox;
  mail::Counts counts;
};

// Errors: invalid_recipient, usage (a mailbox that is not one), the provider's errors.
Result<CountResult> count(Session& session, const CountRequest& request);

// {"schema_version":1,"mailbox","total","unread"}
nlohmann::json to_json(const CountResult& result);
// "3 total, 1 unread for NAME\n"
text::DisplayText to_text(const CountResult& result, const render::Style& style);
nlohmann::json count_output_schema();

} // namespace mailroom::ops
