#pragma once

// agents add and agents remove: registering mailboxes so they can receive mail, and retiring one
// (its delivered mail stays readable). The list is ops/agents.hpp.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mail/message.hpp"
#include "render/table.hpp"
#include "session.hpp"

namespace mailroom::ops {

struct AgentsChangeRequest {
  std::vector<std::string> names; // one or more mailbox names
};

struct AgentsChangeResult {
  bool removed = false;                 // remove (else add)
  std::vector<mail::Mailbox> mailboxes; // registered now (add), or retired (remove)
  std::vector<mail::Mailbox> already;   // add: registered before, each once
};

// Errors: usage (no name, or one that is not a mailbox), the provider's (unsupported without a
// registry).
Result<AgentsChangeResult> add_agents(Session& session, const AgentsChangeRequest& request);
// Tells an `unread_mail` notice for each retired mailbox that still had unread mail. Errors: as
// add_agents; a name not registered (not_found).
Result<AgentsChangeResult> remove_agents(Session& session, const AgentsChangeRequest& request);

// {"schema_version":1,"ok":true,"ids","mailboxes","already"} ("ids" kept for round-1 scripts)
nlohmann::json to_json(const AgentsChangeResult& result);
// "Registered NAME" and "Already registered NAME" lines, or "Removed NAME" lines.
text::DisplayText to_text(const AgentsChangeResult& result, const render::Style& style);
nlohmann::json agents_change_output_schema();

} // namespace mailroom::ops
