#!/usr/bin/env bash
# integration/postgres_serve_api.sh: the API suite of serve_api.sh on a PostgreSQL store.
source "$(dirname "$0")/common.sh"
[ "${MAILROOM_SANITIZED:-0}" = 1 ] && skip "the SQLite run covers the server under the sanitizers"
source "$integration_dir/pg_common.bash"
mailroom init --db "$MAILROOM_DB" > /dev/null
source "$integration_dir/serve_common.bash"
source "$integration_dir/serve_api_suite.bash"
