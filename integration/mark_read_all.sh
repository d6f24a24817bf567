#!/usr/bin/env bash
# integration/mark_read_all.sh: mark-read --all empties the caller's unread list and nobody else's
. "$(dirname "$0")/common.sh"
workspace bob carol
send_id --to bob --to carol "one" > /dev/null
send_id bob "two" > /dev/null
# One summary line, not one line per message.
[ "$(mailroom --as bob mark-read --all)" = "Marked 2 message(s) read for bob" ]
[ "$(mailroom --as bob --json count | jq .unread)" = 0 ]
[ "$(mailroom --as carol --json count | jq .unread)" = 1 ]
mailroom --as bob mark-read --all | grep -qx "No unread messages for bob"
expect_exit 2 mailroom --as bob mark-read --all mr-123456
