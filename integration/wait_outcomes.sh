#!/usr/bin/env bash
# integration/wait_outcomes.sh: waiting ends when the answer is known (set aside by a watcher,
# expired, replied), with "outcome" and "notice"; wait --after as a cursor and --since, on the bead
# store. PostgreSQL: postgres_wait_outcomes.sh.
. "$(dirname "$0")/common.sh"
. "$integration_dir/wait_outcomes.bash"
mailroom agents add lead worker other > /dev/null
outcome_checks
