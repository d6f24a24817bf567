#pragma once

// The per-id state changes: archive, unarchive, delete, mark-read, mark-unread and ack (contract
// "Multi-id actions"), and mark-read --all.
//
// Each id is resolved (a unique prefix will do) and changed for the actor acting.hpp picks, in
// order. One id: its error is the operation's error. Several ids: every id is tried and each is
// reported as it happens; a store or provider failure (exit 5) stops the loop, and the ids after
// it fail with the same error, untried. A change the provider did as an archive instead
// (ChangeOutcome::archived_instead) counts as changed, with a `delete_as_archive` notice.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/exit_code.hpp"
#include "mail/views.hpp"
#include "render/table.hpp"
#include "session.hpp"

namespace mailroom::ops {

struct ChangeRequest {
  std::vector<std::string> ids; // message ids or unique prefixes
  mail::Change change = mail::Change::mark_read;
  std::optional<std::string> for_name; // act on this recipient's delivery (acting.hpp)
};

struct ChangeFailure {
  std::string id; // as typed
  Error error;
};

struct ChangeResult {
  std::vector<std::string> changed; // resolved ids
  std::vector<std::string> already;
  std::vector<ChangeFailure> failed;
  ExitCode worst = ExitCode::ok; // the worst exit code of the failures
};

// Told of each id as it is done: `id` is resolved (as typed when it could not be), and `outcome`
// what happened (an error only when several ids were given). An error it returns (the caller
// could not write its line) ends the operation: store_error naming what already changed.
using ChangeReport = std::function<Result<void>(const std::string& typed, const std::string& id,
                                                const Result<mail::ChangeOutcome>& outcome)>;

// Errors: usage (`missing message ID`); with one id, its error; the report's error.
Result<ChangeResult> change(Session& session, const ChangeRequest& request, const ChangeReport& report);

// `written` (the caller writing the result) as the operation's outcome: a failed write after
// something changed is store_error naming what changed.
Result<void> after_change(const ChangeResult& result, Result<void> written);

// {"schema_version":1,"ok":<nothing failed>,"ids":[changed],"already":[…],"failed":[{"id","code"}]}
nlohmann::json to_json(const ChangeResult& result);
nlohmann::json change_output_schema();

// mark-read --all: every unread message of the caller's own inbox.
struct MarkAllReadResult {
  mail::Mailbox mailbox;
  std::vector<mail::MessageId> ids; // the messages it marked
};
Result<MarkAllReadResult> mark_all_read(Session& session);
// {"schema_version":1,"ok":true,"ids":[…],"already":[],"failed":[]}: change_output_schema's shape
nlohmann::json to_json(const MarkAllReadResult& result);
// One summary line, however many there were (the ids are in the JSON).
text::DisplayText to_text(const MarkAllReadResult& result, const render::Style& style);

} // namespace mailroom::ops
