#!/usr/bin/env bash
# integration/check_inject.sh: the reminder block, urgent first, --limit and the "Showing" line; nothing changes
. "$(dirname "$0")/common.sh"
workspace mayor polecat
[ -z "$(mailroom --as mayor check --inject)" ]
send_id mayor "Fix the auth bug" > /dev/null
send_id --as polecat mayor "PR #17 ready for review" > /dev/null
send_id --as polecat mayor --urgent -s "Outage" -m "prod is down" > /dev/null
send_id mayor "fourth" > /dev/null
mailroom --as mayor check --inject > "$t/out"
mailroom --as mayor check --inject --limit 5 >> "$t/out"
[ "$(mailroom --as mayor --json count | jq .unread)" = 4 ]
expect_golden "$t/out"
