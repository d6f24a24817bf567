#pragma once

// peek: the read view, changing nothing (no state, no presence).

#include <string>

#include <nlohmann/json.hpp>

#include "mail/message.hpp"
#include "render/table.hpp"
#include "session.hpp"

namespace mailroom::ops {

struct PeekRequest {
  std::string id; // a message id or a unique prefix of one
};

struct PeekResult {
  mail::Message message; // as the caller sees it
  mail::UnixMillis now = 0;
};

// Errors: not_found, ambiguous_id, the provider's errors.
Result<PeekResult> peek(Session& session, const PeekRequest& request);

// {"schema_version":1,"message":{…}}
nlohmann::json to_json(const PeekResult& result);
text::DisplayText to_text(const PeekResult& result, const render::Style& style);
nlohmann::json peek_output_schema();

} // namespace mailroom::ops
