#pragma once

// The team as the operator sees it (contract "The team, as the operator sees it"): the `team`
// table and its JSON.

#include <nlohmann/json.hpp>

#include "mail/team.hpp"
#include "render/table.hpp"
#include "text/display.hpp"

namespace mailroom::render {

// MAILBOX, STATE, LAST SEEN ("12s ago via check", "-" when never), UNREAD, OWED, OVERDUE,
// AWAITING (its requests others have not acknowledged), CLAIMS ("<id> by <watcher>", "+N more"),
// SET ASIDE; in the order given. Cells sanitised (render_table). Ends in '\n'.
text::DisplayText render_team_table(const mail::TeamResult& result, mail::UnixMillis now,
                                    const Style& style = {});

// {"schema_version":1,"presence_after_ms","stale_after_ms","mailboxes":[{"mailbox","state",
//  "last_seen_at","seen_via","unread","owed_count","overdue_count","awaiting_others_count",
//  "claims":[{"id","claimed_by","lease_left_ms"}],"set_aside_count","retired_at"}]}; absent times
// and seen_via null.
nlohmann::json team_to_json(const mail::TeamResult& result);

} // namespace mailroom::render
