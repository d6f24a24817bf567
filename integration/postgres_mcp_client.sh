#!/usr/bin/env bash
# integration/postgres_mcp_client.sh: the MCP client suite (mcp_client.sh) on a PostgreSQL store.
. "$(dirname "$0")/common.sh"
[ "${MAILROOM_SANITIZED:-0}" = 1 ] && skip "the SQLite run covers the server under the sanitizers"
command -v node > /dev/null || skip "no node on PATH"
. "$integration_dir/pg_common.bash"
mailroom init --db "$MAILROOM_DB" > /dev/null
store_line="url = \"$MAILROOM_DB\""
. "$integration_dir/mcp/client_suite.bash"
