#!/usr/bin/env bash
# integration/archive_twice.sh: a second archive succeeds and says so; unarchive brings it back
. "$(dirname "$0")/common.sh"
workspace bob
id=$(send_id bob "lunch?")
expect_exit 0 mailroom --as bob archive "$id"
mailroom --as bob archive "$id" > "$t/out"
mailroom --as bob inbox >> "$t/out"
mailroom --as bob unarchive "$id" >> "$t/out"
[ "$(mailroom --as bob --json count | jq .total)" = 1 ]
expect_golden "$t/out"
