#!/usr/bin/env bash
# integration/send_multi.sh: one message to several recipients, listed once, each with its own state
. "$(dirname "$0")/common.sh"
workspace alice bob carol
mailroom send --to alice --to bob --cc carol -s "kickoff" -m "monday 9am" > "$t/out"
id=$(mailroom --as alice --json inbox | jq -r '.messages[0].id')
[ "$(mailroom --as bob --json inbox | jq -r '.messages[0].id')" = "$id" ]
mailroom --as alice read "$id" > /dev/null
[ "$(mailroom --as bob --json count | jq .unread)" = 1 ]
mailroom send alice "a" "b" "c" 2> /dev/null && exit 1
mailroom send alice "text" -m "other" 2> /dev/null && exit 1
expect_exit 2 mailroom send alice
expect_golden "$t/out"
