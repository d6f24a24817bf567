#!/usr/bin/env bash
# integration/reply_all.sh: reply --all reaches everyone on the original except the replier
. "$(dirname "$0")/common.sh"
workspace alice bob carol
id=$(send_id --as alice --to bob --cc carol -s "plan" -m "draft attached")
mailroom --as bob reply --all "$id" -m "looks good" | grep -q "to alice, carol$"
[ "$(mailroom --as carol --json count | jq .unread)" = 2 ]
[ "$(mailroom --as alice --json count | jq .unread)" = 1 ]
