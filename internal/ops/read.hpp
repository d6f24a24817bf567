#pragma once

// read: a message shown to its reader and then marked read, in that order: the message is marked
// read only once `deliver` (which writes it out) succeeded, so a failed write keeps it unread. Its
// sender, when not a recipient, only sees it: the `sender_read` notice says whose copy it left.

#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "mail/message.hpp"
#include "render/table.hpp"
#include "session.hpp"

namespace mailroom::ops {

struct ReadRequest {
  std::string id;                      // a message id or a unique prefix of one
  std::optional<std::string> for_name; // act on this recipient's delivery (acting.hpp)
};

struct ReadResult {
  mail::Message message; // as the reader sees it (to_json shows the state after the read)
  mail::UnixMillis now = 0;
};

// Writes `result` out; an error keeps the message unread.
using ReadDeliver = std::function<Result<void>(const ReadResult& result)>;

// Errors: not_found, ambiguous_id, not_recipient (explained), usage (a bad `for`), the provider's
// errors, and deliver's error.
Result<ReadResult> read(Session& session, const ReadRequest& request, const ReadDeliver& deliver);

// {"schema_version":1,"message":{…,"read":true}} (contract "read --json": the state after the read)
nlohmann::json to_json(const ReadResult& result);
text::DisplayText to_text(const ReadResult& result, const render::Style& style);
nlohmann::json read_output_schema();

} // namespace mailroom::ops
