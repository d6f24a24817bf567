#!/usr/bin/env bash
# integration/postgres_wait_outcomes.sh: wait_outcomes.sh's checks on PostgreSQL.
. "$(dirname "$0")/common.sh"
. "$integration_dir/pg_common.bash"
. "$integration_dir/wait_outcomes.bash"
mailroom init --db "$MAILROOM_DB" > /dev/null
mailroom agents add lead worker other > /dev/null
outcome_checks
