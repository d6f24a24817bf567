#pragma once

// sent: what a mailbox sent, newest first, each with its recipients' state.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "filters.hpp"
#include "render/table.hpp"
#include "session.hpp"

namespace mailroom::ops {

struct SentRequest {
  std::optional<std::string> mailbox; // whose sent mail; default the caller (another's is a view)
  LimitRequest limit;
  FilterRequest filters;
  bool previews = false; // load only the start of each body (enough for to_text)
};

struct SentResult {
  mail::Mailbox mailbox;
  mail::Filters filters;
  mail::ListResult listed;
  mail::UnixMillis now = 0;
};

// Errors: those of listing_target and resolve_filters, the provider's errors.
Result<SentResult> sent(Session& session, const SentRequest& request);

// list_to_json: each message carries its "summary".
nlohmann::json to_json(const SentResult& result);
text::DisplayText to_text(const SentResult& result, const render::Style& style);
nlohmann::json sent_output_schema();

} // namespace mailroom::ops
