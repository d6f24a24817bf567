#pragma once

// inbox: a mailbox's unread messages (all with `all`), urgent first, then oldest first. With
// `awaiting`: what awaits the mailbox's reply or ack, read or not (mail::is_owed: a request
// submitted or working, or with no request, an ack awaited or escalated), in the same order.

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "filters.hpp"
#include "render/table.hpp"
#include "session.hpp"

namespace mailroom::ops {

struct InboxRequest {
  std::optional<std::string> mailbox; // whose inbox; default the caller (another's is a view)
  bool all = false;                   // include messages already read
  bool awaiting = false;              // only what awaits the mailbox's reply or ack (see above)
  LimitRequest limit;
  FilterRequest filters;
  bool previews = false; // load only the start of each body (enough for to_text)
};

struct InboxResult {
  mail::Mailbox mailbox;
  bool all = false;
  bool awaiting = false;
  mail::Filters filters;
  mail::ListResult listed;
  mail::UnixMillis now = 0;
};

// Errors: those of listing_target and resolve_filters, the provider's errors.
Result<InboxResult> inbox(Session& session, const InboxRequest& request);

// list_to_json plus "unread" (the mailbox's unread total).
nlohmann::json to_json(const InboxResult& result);
// The inbox table and "Showing N of M", or the contract's line for an empty inbox.
text::DisplayText to_text(const InboxResult& result, const render::Style& style);
nlohmann::json inbox_output_schema();

} // namespace mailroom::ops
