#pragma once

// The life of a request on every surface (contract "The life of a request (A2A task states)"):
// cancel by its sender, and decline, ask and fail by a recipient. mail/request.hpp decides who may
// and what each moves; the store's requests facet applies it (the exec provider has none:
// unsupported).

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "mail/request.hpp"
#include "render/table.hpp"
#include "session.hpp"

namespace mailroom::ops {

struct CancelRequest {
  std::string id;                      // a message id or unique prefix
  std::string reason;                  // the canceled notice's body (may be empty)
  std::optional<std::string> to;       // --to NAME: only NAME's delivery
  std::optional<std::string> for_name; // --for SENDER: an operator acting as the sender
};

// What a cancel did, as this operation's result.
struct CancelResult {
  mail::CancelResult outcome;
};

// Errors: usage (a bad --to or --for, no reply expected), not_found, ambiguous_id, not_sender,
// not_recipient (--to names no recipient), unsupported (a store without the requests facet), the
// store's.
Result<CancelResult> cancel(Session& session, const CancelRequest& request);

// {"schema_version":1,"ok":true,"id","canceled":[names],"unchanged":[{"recipient","request_state"}],
//  "notice":id|null}
nlohmann::json to_json(const CancelResult& result);
// `Canceled mr-… for bob, carol; sent notice mr-…` and `Unchanged for dave (completed)`, or
// `Nothing to cancel: …` when every delivery had already ended.
text::DisplayText to_text(const CancelResult& result, const render::Style& style);
nlohmann::json cancel_output_schema();

struct RespondRequest {
  mail::RequestVerb verb = mail::RequestVerb::decline;
  std::string id;                      // the request: a message id or unique prefix
  std::string text;                    // the reason (decline, fail; may be empty) or the question (ask)
  std::optional<std::string> for_name; // --for NAME: an operator answering for recipient NAME
};

struct RespondResult {
  mail::RequestVerb verb = mail::RequestVerb::decline;
  mail::MessageId request; // resolved
  mail::SendReceipt receipt;
};

// Errors: usage (no reply expected, ask without a question, a bad --for), not_found,
// ambiguous_id, not_recipient (explained), conflict (the request already ended, or already waits
// for an answer), unsupported, the store's.
Result<RespondResult> respond(Session& session, const RespondRequest& request);

// {"schema_version":1,"ok":true,"id":<notice>,"ids","thread_id","recipients","reply_to":<request>,
//  "request_state":<the replier's now>,"replayed":false}
nlohmann::json to_json(const RespondResult& result);
// `Declined mr-… — sent message mr-… to alice` (`Asked alice about mr-… — sent question mr-…`,
// `Failed mr-… — …`).
text::DisplayText to_text(const RespondResult& result, const render::Style& style);
nlohmann::json respond_output_schema();

} // namespace mailroom::ops
