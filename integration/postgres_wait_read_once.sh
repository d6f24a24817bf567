#!/usr/bin/env bash
# integration/postgres_wait_read_once.sh: wait_read_once.sh on the PostgreSQL store: of two or
# three `wait --read` racing for the same mail each gets its own message (0 double reads); a
# waiter that loses waits on; --reply-to returns the reply to every waiter.
. "$(dirname "$0")/common.sh"
. "$integration_dir/pg_common.bash"
. "$integration_dir/wait_read_once.bash"
mailroom init > /dev/null
mailroom agents add alice bob > /dev/null
race_rounds
