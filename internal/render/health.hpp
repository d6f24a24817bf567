#pragma once

// Delivery health as people and scripts see it: the redelivery label every view puts on a
// message the sweep re-surfaced, the `peers` table and JSON, and the sweep's lines and JSON
// (contract "Acknowledgement and delivery health", "The redelivery sweep").

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "mail/health.hpp"
#include "mail/message.hpp"
#include "render/table.hpp"
#include "text/display.hpp"

namespace mailroom::render {

// "redelivered, attempt k, first sent <age> ago" when the viewer's delivery of `message` was
// redelivered by the sweep (attempts > 0), else "". <age> is "45s", "12m", "3h" or "2d".
std::string redelivery_note(const mail::Message& message, mail::UnixMillis now);

// The peers table: PEER, STATE (the peer's team state), PENDING, OLDEST (age of the oldest pending),
// ESCALATED, LAST SENT, LAST ACKED, LAST INBOUND, LAST SEEN (ages, "-" when never), STALE ("stale" or blank),
// in the order given (stale first); cells sanitised (render_table), the header bold when `style.color`. Ends
// in '\n'.
text::DisplayText render_peers_table(const mail::PeersResult& result, mail::UnixMillis now,
                                     const Style& style = {});

// {"schema_version":1,"mailbox","stale_count","peers":[{"peer","state","last_sent_at",
//  "last_acked_at","last_inbound_at","last_seen_at","pending_count","oldest_pending_age_ms",
//  "escalated_count","stale"}]} with absent times and ages null.
nlohmann::json peers_to_json(const mail::PeersResult& result);

// `peers --all`: SENDER, RECIPIENT, PENDING, OLDEST, ESCALATED, FAILED, LAST SENT, LAST ACKED,
// STALE, one row per pair in the order given (stale first). Ends in '\n'.
text::DisplayText render_pairs_table(const mail::PairsResult& result, mail::UnixMillis now,
                                     const Style& style = {});

// {"schema_version":1,"stale_count","pairs":[{"sender","recipient","pending_count",
//  "oldest_pending_age_ms","escalated_count","failed_count","stale","last_sent_at",
//  "last_acked_at"}]} with absent times and ages null.
nlohmann::json pairs_to_json(const mail::PairsResult& result);

// "Redelivered <id> to <peer> (attempt k of n)"; with `dry_run`, "Would redeliver …". No newline.
// Ids and names are sanitised (Sink::terminal_line).
text::DisplayText redelivery_line(const mail::Redelivery& redelivery, bool dry_run);
// "Told <mailbox> that <peer> has not acknowledged <n> message(s): <escalation id>"; with
// `dry_run`, "Would tell <mailbox> that <peer> has not acknowledged <n> message(s)". No newline. Sanitised as
// above.
text::DisplayText escalation_line(const mail::Escalation& escalation, bool dry_run);

// {"id","sender","recipient","attempt","max_attempts"}
nlohmann::json redelivery_to_json(const mail::Redelivery& redelivery);
// {"sender","peer","ids":[…],"escalate_to","escalation_id" (null in a dry run)}
nlohmann::json escalation_to_json(const mail::Escalation& escalation);

// The sweep's one JSON document: {"schema_version":1,"ok","enabled","dry_run","redelivered":[…],
// "escalated":[…]}.
nlohmann::json sweep_to_json(const mail::SweepReport& report);

} // namespace mailroom::render
