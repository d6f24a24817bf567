#!/usr/bin/env bash
# integration/sent.sh: what I sent, newest first, with each message's recipients' state
. "$(dirname "$0")/common.sh"
workspace alice bob carol dave
first=$(send_id --as alice bob -s "first" -m "hello")
task=$(send_id --as alice --to bob --to carol --cc dave -s "ship it" -m "please ship" --type task_request)
mailroom --as bob read "$task" > /dev/null
mailroom --as carol reply "$task" "shipped" > /dev/null
mailroom --as bob sent > "$t/bob"
grep -qx 'No sent messages for bob' "$t/bob"
mailroom --as alice sent > "$t/out"
expect_golden "$t/out"
mailroom --as alice --json sent > "$t/json"
jq -e --arg task "$task" --arg first "$first" '
  [.messages[].id] == [$task, $first] and .total == 2 and .has_more == false
  and .messages[0].summary == {"recipients":3,"read":2,"archived":0,"acked":1,"awaiting_ack":2,"failed":0,
                                    "claimed":0,"set_aside":0,"handler_failed":0}
  and .messages[0].read == null' "$t/json" > /dev/null
mailroom --as dave sent > "$t/none"
grep -qx 'No sent messages for dave' "$t/none"
[ "$(mailroom --as alice --json sent --to dave | jq -r '.messages[].id')" = "$task" ]
mailroom --as alice sent --limit 1 | tail -1 | grep -qx 'Showing 1 of 2; --limit to see more'
