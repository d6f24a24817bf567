#pragma once

// agents (list): the registered mailboxes, with when each was registered and last seen and its
// unread count. A view: it records no presence.

#include <vector>

#include <nlohmann/json.hpp>

#include "mail/message.hpp"
#include "mail/provider.hpp"
#include "render/table.hpp"
#include "session.hpp"
#include "wake.hpp"

namespace mailroom::ops {

struct AgentsRequest {};

struct AgentsResult {
  std::vector<mail::Agent> agents;
  mail::UnixMillis now = 0;
  std::vector<WakeView> wakes; // their wake targets and last wakes (ops/wake.hpp)
};

// Errors: the provider's (unsupported without a registry).
Result<AgentsResult> agents(Session& session, const AgentsRequest& request);

// {"schema_version":1,"agents":[{"name","registered_at","last_seen","unread","wake"}]}
nlohmann::json to_json(const AgentsResult& result);
text::DisplayText to_text(const AgentsResult& result, const render::Style& style);
nlohmann::json agents_output_schema();

} // namespace mailroom::ops
