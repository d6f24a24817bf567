#!/usr/bin/env bash
# integration/postgres_send_misroute.sh: send_misroute.sh's checks on PostgreSQL.
. "$(dirname "$0")/common.sh"
. "$integration_dir/pg_common.bash"
. "$integration_dir/send_misroute.bash"
command -v mkfifo > /dev/null || skip "mkfifo is not installed"

mailroom init --db "$MAILROOM_DB" > /dev/null
mailroom agents add alice bob carol lead > /dev/null
misroute_checks yes yes
