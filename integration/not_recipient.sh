#!/usr/bin/env bash
# integration/not_recipient.sh: acting on another mailbox's message is a conflict (exit 4); nothing changes
. "$(dirname "$0")/common.sh"
workspace alice bob carol
id=$(send_id --as alice bob "private")
expect_exit 4 mailroom --as carol mark-read "$id"
expect_exit 4 mailroom --as carol read "$id"
expect_exit 4 mailroom --as carol archive "$id"
mailroom --as carol --json mark-read "$id" 2> "$t/err" || true
jq -e '.error.code == "not_recipient" and .error.exit_code == 4' "$t/err" > /dev/null
[ "$(mailroom --as bob --json count | jq .unread)" = 1 ]
