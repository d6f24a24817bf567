#!/usr/bin/env bash
# integration/request_waiters.sh: request_waiters.bash's checks on the bead store (SQLite):
# send --wait-reply and wait --reply-to end at once on a decline, a failure, a question and a
# cancel. PostgreSQL: postgres_request_waiters.sh.
. "$(dirname "$0")/common.sh"
. "$integration_dir/request_waiters.bash"
mailroom agents add lead worker > /dev/null
waiter_checks
