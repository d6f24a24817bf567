#!/usr/bin/env bash
# integration/broadcast.sh: @all reaches every registered mailbox but the sender and human; one read hides it from nobody else
. "$(dirname "$0")/common.sh"
workspace coder committer tester reviewer
mailroom --as coder send --all "standup in 5" > "$t/out"
id=$(mailroom --as tester --json inbox | jq -r '.messages[0].id')
mailroom --as tester read "$id" > /dev/null
[ "$(mailroom --as tester --json count | jq .unread)" = 0 ]
for who in committer reviewer; do
  [ "$(mailroom --as $who --json count | jq .unread)" = 1 ]
done
[ "$(mailroom --as coder --json count | jq .total)" = 0 ]
[ "$(mailroom --json count human | jq .total)" = 0 ]
# A broadcast stays small on screen: the address as written, and how many it reached.
mailroom --as committer send @all "me too" | grep -q "to @all (3 mailboxes)$"
[ "$(mailroom --as tester --json inbox | jq -r '.messages[-1].to | join(",")')" = "coder,reviewer,tester" ]
# ...and so do the views of it: one To: line with the address as written, no list of names.
mailroom --as tester peek "$id" | grep -qx "To:       @all (3 mailboxes)"
mailroom --as tester thread "$id" | grep -q "@all (3 mailboxes)"
! mailroom --as tester peek "$id" | grep -q "committer, reviewer"
expect_golden "$t/out"
