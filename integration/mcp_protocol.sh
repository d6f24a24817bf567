#!/usr/bin/env bash
# integration/mcp_protocol.sh: `mailroom mcp` at the wire, one case per lifecycle rule (malformed
# JSON, a 64 MiB line, unknown method, batch, notifications, 300 in flight, end of input,
# cancellation, hostile text, no identity, --tools core, subscriptions/listen). Needs node (>= 20)
# but no npm package; skipped without it.
. "$(dirname "$0")/common.sh"
command -v node > /dev/null || skip "no node on PATH"
[ "$(node -p 'process.versions.node.split(".")[0]')" -ge 20 ] || skip "node $(node --version) is older than 20"
mailroom agents add alice bob carol > /dev/null
# Nothing but protocol on stdout: a server that got only end of input writes nothing and exits 0.
[ -z "$(MAILROOM_IDENTITY=alice mailroom mcp < /dev/null)" ]
timeout 120 node "$integration_dir/mcp/protocol_suite.mjs"
