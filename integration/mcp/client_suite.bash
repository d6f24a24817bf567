#!/usr/bin/env bash
# integration/mcp/client_suite.bash: sourced by mcp_client.sh (SQLite) and postgres_mcp_client.sh
# after common.sh (and pg_common.bash): runs client_suite.mjs against the store in $MAILROOM_DB,
# given `store_line`, the [store] line of the workspace the no-env server finds from its directory;
# then digest_suite.mjs (mcp --digest, the unknown_type warning) on the same store.
# Skips (exit 125) without node >= 20 or without `make deps` having run `npm ci`.
suite="$integration_dir/mcp"
command -v node > /dev/null || skip "no node on PATH (the MCP client needs node >= 20)"
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 20 ] || skip "node $(node --version) is older than 20"
[ -d "$suite/node_modules/@modelcontextprotocol/client" ] || skip "run 'make deps' (npm ci in integration/mcp)"

mailroom agents add alice bob carol > /dev/null
mkdir -p "$t/ws"
printf '[store]\n%s\n' "$store_line" > "$t/ws/mailroom.toml"
(cd "$t/ws" && mailroom mcp install claude > /dev/null)
WORK="$t/ws" timeout 120 node "$suite/client_suite.mjs"
timeout 60 node "$suite/digest_suite.mjs"
