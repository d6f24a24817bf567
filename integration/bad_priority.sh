#!/usr/bin/env bash
# integration/bad_priority.sh: priorities by name or number; anything else is exit 2 and stores nothing
. "$(dirname "$0")/common.sh"
workspace bob
expect_exit 2 mailroom send bob "x" --priority huge 2> "$t/err"
expect_exit 2 mailroom send bob "x" --priority 5 2>> "$t/err"
expect_golden "$t/err" err
[ "$(mailroom --as bob --json count | jq .total)" = 0 ]
id=$(send_id bob "x" --priority 1)
[ "$(mailroom --as bob --json peek "$id" | jq .message.priority)" = 1 ]
id=$(send_id bob "y" --priority backlog)
[ "$(mailroom --as bob --json peek "$id" | jq .message.priority)" = 4 ]
