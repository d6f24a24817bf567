#pragma once

// The event stream's text (contract "Live events"): Server-Sent Events framing of the store's
// events, the one `event: reset`, heartbeats, and `peer.state`, which `serve` computes from the
// team's states. No network and no store here.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.hpp"
#include "mail/duration.hpp"
#include "mail/team.hpp"

namespace mailroom::http {

// "id: <seq>\nevent: <type>\ndata: <json>\n\n" for an event whose data is `data` (ops::to_json
// of a store event: {"seq","at","type","id","mailbox","actor"}).
std::string sse_event(std::int64_t seq, std::string_view type, const nlohmann::json& data);
// The one `event: reset`: the stream resumed after a seq older than the oldest kept event; what
// follows starts at the oldest kept. Carries no id, so a reconnect resumes after the last event.
std::string sse_reset(std::int64_t oldest_kept);
// "event: store\ndata: {"ok":false,"error":{…the CLI's error object…}}\n\n" while the store does
// not answer (`down`), "data: {"ok":true}" once it does again. No id: it is not a stored event.
std::string sse_store(const Error* down);
// A comment line: keeps proxies and the reader's timers from ending an idle stream.
std::string sse_heartbeat();

// Where a stream starts: the Last-Event-ID header, else ?after= (a seq, 0 or more); nullopt for
// neither (from now on). Errors: usage (not a seq).
Result<std::optional<std::int64_t>> stream_after(const std::optional<std::string>& last_event_id,
                                                 const std::optional<std::string>& after);

// How often `serve` recomputes peer.state: presence_after / 10, at most 10 s, at least 100 ms.
mail::Millis peer_state_period(mail::Millis presence_after);

// The team's states as last computed: each update answers the `peer.state` events of the
// mailboxes whose state changed (nothing on the first update, which only learns them).
class PeerStates {
public:
  struct Change {
    mail::Mailbox mailbox;
    mail::TeamState state;
    std::optional<mail::TeamState> previous; // nullopt: a mailbox new to the team
  };
  std::vector<Change> update(const std::vector<mail::TeamMember>& team);

private:
  bool m_known = false;
  std::map<mail::Mailbox, mail::TeamState> m_states;
};

// "event: peer.state\ndata: {"seq":null,"at","type":"peer.state","id":null,"mailbox","actor":null,
// "state","previous"}\n\n" (computed, not stored: no id line).
std::string sse_peer_state(const PeerStates::Change& change, mail::UnixMillis at);

} // namespace mailroom::http
