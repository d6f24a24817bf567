#!/usr/bin/env bash
# integration/send_misroute.sh: no silent misroutes (an address as the subject, piped data beside
# -s, cron's /dev/null, an open silent pipe, a while-read loop, a watch handler's stdin), on the
# bead store and on the exec provider (no registry, no watch). PostgreSQL:
# postgres_send_misroute.sh.
. "$(dirname "$0")/common.sh"
. "$integration_dir/send_misroute.bash"
command -v mkfifo > /dev/null || skip "mkfifo is not installed"

mailroom agents add alice bob carol lead > /dev/null
misroute_checks yes yes

# The exec provider (the reference script), in a directory of its own.
: "${MAILROOM_TESTDATA:?set MAILROOM_TESTDATA to the testdata directory}"
if command -v flock > /dev/null; then
  mkdir -p "$t/exec" "$t/state" && cd "$t/exec"
  rm -f "$t/silent" "$t/list"
  export MAILROOM_PROVIDER="exec:$MAILROOM_TESTDATA/exec/stateful.sh" MAILROOM_EXEC_STATE="$t/state"
  misroute_checks no no
fi
