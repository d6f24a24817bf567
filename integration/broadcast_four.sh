#!/usr/bin/env bash
# integration/broadcast_four.sh: a broadcast to four agents read by one stays unread for the other
# three in inbox, count, check and check --inject; archive by one leaves it in the others' inboxes;
# status shows one record per recipient.
. "$(dirname "$0")/common.sh"
workspace lead a1 a2 a3 a4
id=$(send_id --as lead @all "all hands at 3")
[ "$(mailroom --as lead --json status "$id" | jq '.recipients | length')" = 4 ]

mailroom --as a1 read "$id" > /dev/null
expect_exit 1 mailroom --as a1 check
for who in a2 a3 a4; do
  [ "$(mailroom --as $who --json inbox | jq -r '.messages[0].id')" = "$id" ]
  [ "$(mailroom --as $who --json count | jq .unread)" = 1 ]
  [ "$(mailroom --as $who check)" = "1 unread message(s) for $who" ]
  mailroom --as $who check --inject | grep -q -- "- $id from lead: all hands at 3"
done

mailroom --as a2 archive "$id" > /dev/null
[ "$(mailroom --as a2 --json inbox --all | jq '.messages | length')" = 0 ]
for who in a3 a4; do
  [ "$(mailroom --as $who --json inbox | jq -r '.messages[0].id')" = "$id" ]
done
mailroom --as lead --json status "$id" |
  jq -e '[.recipients[] | select(.read_at != null)] | length == 1' > /dev/null
mailroom --as lead --json status "$id" |
  jq -e '[.recipients[] | select(.archived_at != null)] | length == 1' > /dev/null
