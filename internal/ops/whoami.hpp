#pragma once

// whoami: who the caller acts as and which message types it may send (the built-in types, then
// the configured ones), each with whether it expects a reply. A view: it reads no store and
// records no presence. The dashboard's compose form shows it (GET /api/v1/session).

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mail/types.hpp"
#include "session.hpp"

namespace mailroom::ops {

struct WhoamiResult {
  config::Identity me;
  std::vector<mail::MessageType> types;
};

// Never fails.
WhoamiResult whoami(const Session& session);

// {"schema_version":1,"identity","types":[{"name","expects_reply"}]}
nlohmann::json to_json(const WhoamiResult& result);
nlohmann::json whoami_output_schema();

} // namespace mailroom::ops
