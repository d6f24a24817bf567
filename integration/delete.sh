#!/usr/bin/env bash
# integration/delete.sh: delete is archive with Gas City wording; nothing is destroyed
. "$(dirname "$0")/common.sh"
workspace bob
id=$(send_id bob "old news")
mailroom --as bob delete "$id" > "$t/out"
mailroom --as bob delete "$id" >> "$t/out"
expect_golden "$t/out"
[ "$(mailroom --as bob --json count | jq .total)" = 0 ]
mailroom --as bob peek "$id" | grep -q "old news"
