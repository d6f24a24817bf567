#pragma once

// The JSON arguments a send and a reply share on the surfaces that take JSON (the MCP `send` and
// `reply` tools, the HTTP API's POST messages and messages/{id}/reply): their schema, written
// once, and their reading into the operation's Sending.

#include <nlohmann/json.hpp>

#include "ops/send.hpp"

namespace mailroom::ops {

// subject, body, type, priority, ttl, ack, idempotency_key (ops::args schemas).
nlohmann::json sending_properties();
// The Sending of arguments that passed ops::args::validate.
Sending sending_of(const nlohmann::json& args);

} // namespace mailroom::ops
