#!/usr/bin/env bash
# mailroom serve on a PostgreSQL store whose server crashes and comes back: the degraded view
# (serve_degraded_suite.bash).
source "$(dirname "$0")/common.sh"
[ "${MAILROOM_SANITIZED:-0}" = 1 ] && skip "the SQLite run covers the server under the sanitizers"
source "$integration_dir/pg_common.bash"
mailroom init --db "$MAILROOM_DB" > /dev/null
source "$integration_dir/serve_common.bash"
store_away() { pg_halt; }
store_back() { pg_resume; }
source "$integration_dir/serve_degraded_suite.bash"
echo ok
