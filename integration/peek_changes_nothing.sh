#!/usr/bin/env bash
# integration/peek_changes_nothing.sh: peek, inbox, check and count never mark anything read
. "$(dirname "$0")/common.sh"
workspace bob
id=$(send_id bob "hello")
mailroom --as bob peek "$id" > /dev/null
mailroom --as bob inbox > /dev/null
mailroom --as bob check > /dev/null
mailroom --as bob check --inject > /dev/null
[ "$(mailroom --as bob --json count | jq .unread)" = 1 ]
[ "$(mailroom --as bob --json peek "$id" | jq .message.read)" = false ]
