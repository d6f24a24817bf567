#!/usr/bin/env bash
# integration/count.sh: count agrees with inbox and check, for oneself and for another mailbox
. "$(dirname "$0")/common.sh"
workspace mayor
mailroom count mayor > "$t/out"
send_id mayor "a" > /dev/null
send_id mayor "b" > /dev/null
mailroom count mayor >> "$t/out"
mailroom --as mayor count >> "$t/out"
[ "$(mailroom --as mayor --json inbox | jq '.messages | length')" = 2 ]
[ "$(mailroom --as mayor --json check | jq .unread)" = 2 ]
expect_golden "$t/out"
