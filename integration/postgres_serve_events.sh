#!/usr/bin/env bash
# integration/postgres_serve_events.sh: the event stream suite of serve_events.sh on a PostgreSQL
# store (woken by LISTEN; a restart's resume reads what committed while the server was down).
source "$(dirname "$0")/common.sh"
[ "${MAILROOM_SANITIZED:-0}" = 1 ] && skip "the SQLite run covers the server under the sanitizers"
source "$integration_dir/pg_common.bash"
mailroom init --db "$MAILROOM_DB" > /dev/null
source "$integration_dir/serve_common.bash"
source "$integration_dir/serve_events_suite.bash"
