#!/usr/bin/env bash
# integration/mcp_client.sh: `mailroom mcp` driven by the official MCP client (npm
# @modelcontextprotocol/client, integration/mcp/package-lock.json) in both eras on SQLite: every
# tool with its outputSchema checked, a cancelled wait, concurrent calls, two servers talking,
# no_identity, an installed configuration, and the resources with their subscriptions in both eras
# (mcp/resource_steps.mjs). Skipped without node >= 20 or `make deps`.
. "$(dirname "$0")/common.sh"
store_line="path = \"$MAILROOM_DB\""
. "$integration_dir/mcp/client_suite.bash"
