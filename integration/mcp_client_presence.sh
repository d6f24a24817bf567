#!/usr/bin/env bash
# integration/mcp_client_presence.sh: presence through `mailroom mcp` and the official MCP client
# (integration/mcp/presence_suite.mjs): every tools/call that records presence records "mcp";
# views and resource reads record nothing. Skipped without node >= 20 or `make deps`.
. "$(dirname "$0")/common.sh"
suite="$integration_dir/mcp"
command -v node > /dev/null || skip "no node on PATH (the MCP client needs node >= 20)"
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 20 ] || skip "node $(node --version) is older than 20"
[ -d "$suite/node_modules/@modelcontextprotocol/client" ] || skip "run 'make deps' (npm ci in integration/mcp)"
mailroom agents add alice bob carol > /dev/null
timeout 120 node "$suite/presence_suite.mjs"
