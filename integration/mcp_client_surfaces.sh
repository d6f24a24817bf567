#!/usr/bin/env bash
# integration/mcp_client_surfaces.sh: the rules decided below the surfaces, through `mailroom mcp`
# and the official MCP client (integration/mcp/surfaces_suite.mjs): the empty-message rule,
# presence as "mcp", the masked server environment, inbox `awaiting`. Skipped without node >= 20 or
# `make deps`.
. "$(dirname "$0")/common.sh"
suite="$integration_dir/mcp"
command -v node > /dev/null || skip "no node on PATH (the MCP client needs node >= 20)"
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 20 ] || skip "node $(node --version) is older than 20"
[ -d "$suite/node_modules/@modelcontextprotocol/client" ] || skip "run 'make deps' (npm ci in integration/mcp)"
mailroom agents add alice bob carol > /dev/null
timeout 120 node "$suite/surfaces_suite.mjs"
