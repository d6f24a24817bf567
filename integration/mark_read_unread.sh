#!/usr/bin/env bash
# integration/mark_read_unread.sh: the gc sequence ends in "3 total, 2 unread for mayor"
. "$(dirname "$0")/common.sh"
workspace mayor
a=$(send_id mayor "one")
b=$(send_id mayor "two")
c=$(send_id mayor "three")
d=$(send_id mayor "four")
mailroom --as mayor mark-read "$a" "$b" > "$t/out"
mailroom --as mayor mark-unread "$a" >> "$t/out"
mailroom --as mayor archive "$c" > /dev/null
mailroom --as mayor count >> "$t/out"
[ "$(mailroom --as mayor --json inbox | jq -r '[.messages[].id] | join(" ")')" = "$a $d" ]
expect_golden "$t/out"
