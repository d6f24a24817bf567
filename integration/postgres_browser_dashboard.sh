#!/usr/bin/env bash
# integration/postgres_browser_dashboard.sh: browser_dashboard.sh's flow on a PostgreSQL store.
. "$(dirname "$0")/common.sh"
[ "${MAILROOM_SANITIZED:-0}" = 1 ] && skip "the SQLite run covers the server under the sanitizers"
. "$integration_dir/pg_common.bash"
. "$integration_dir/browser/suite.bash"
mailroom init --db "$MAILROOM_DB" > /dev/null
mailroom agents add alice bob carol rig/name > /dev/null
start_serve
run_suite dashboard.mjs
