#!/usr/bin/env bash
# integration/mcp_client.sh: `mailroom mcp` driven by the official MCP client (npm
# @modelcontextprotocol/client, integration/mcp/package-lock.json) in both eras: every tool with
# its outputSchema checked, a cancelled wait, concurrent calls, two servers talking, no_identity
# and an installed configuration. Skipped (exit 125) without node >= 20 or without `make deps`
# having run `npm ci`.
. "$(dirname "$0")/common.sh"
suite="$integration_dir/mcp"
command -v node > /dev/null || skip "no node on PATH (the MCP client needs node >= 20)"
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 20 ] || skip "node $(node --version) is older than 20"
[ -d "$suite/node_modules/@modelcontextprotocol/client" ] || skip "run 'make deps' (npm ci in integration/mcp)"

mailroom agents add alice bob carol > /dev/null
# The workspace the no-env server finds from its working directory, sharing this store.
mkdir -p "$t/ws"
printf '[store]\npath = "%s"\n' "$MAILROOM_DB" > "$t/ws/mailroom.toml"
(cd "$t/ws" && mailroom mcp install claude > /dev/null)
WORK="$t/ws" MAILROOM_DB="$MAILROOM_DB" timeout 120 node "$suite/client_suite.mjs"
