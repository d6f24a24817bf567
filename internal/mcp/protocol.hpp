#pragma once

// The MCP methods of `mailroom mcp`, both eras on one process (contract "MCP server",
// "Versions"): legacy `initialize` (2025-06-18, 2025-11-25; an unknown version is answered with
// the newest legacy one, never an error), `notifications/initialized`, `ping`; modern 2026-07-28
// with `server/discover` and the protocol version in each request's `_meta` (results carry
// `resultType`, lists `ttlMs` and `cacheScope`). Tools are static: list_changed is never sent.
// Resources and their subscriptions in both eras: resource_methods.hpp.

#include <string>

#include "mcp/server.hpp"
#include "mcp/tools.hpp"

namespace mailroom::mcp {

inline constexpr std::string_view k_modern_version = "2026-07-28";
inline constexpr std::string_view k_newest_legacy_version = "2025-11-25";

struct ProtocolOptions {
  bool core_only = false; // --tools core
  std::string server_version;
};

// The tools/list result's "tools" array.
json tools_list(bool core_only);

// The handler serve() runs; `env` must outlive it.
Handler make_handler(const ToolEnv& env, const ProtocolOptions& options);

} // namespace mailroom::mcp
