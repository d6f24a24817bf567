#!/usr/bin/env bash
# integration/postgres_request_waiters.sh: request_waiters.bash's checks on PostgreSQL (LISTEN
# wakes both waiters).
. "$(dirname "$0")/common.sh"
. "$integration_dir/pg_common.bash"
. "$integration_dir/request_waiters.bash"
mailroom init --db "$MAILROOM_DB" > /dev/null
mailroom agents add lead worker > /dev/null
waiter_checks
