#!/usr/bin/env bash
# integration/reply_thread.sh: reply adds "Re: " once, goes to the sender, and thread finds the conversation
. "$(dirname "$0")/common.sh"
workspace alice bob
id=$(send_id --as alice bob -s "Lunch" -m "12:30?")
mailroom --as bob reply "$id" "works for me" > "$t/out"
reply=$(mailroom --as alice --json inbox | jq -r '.messages[0].id')
[ "$(mailroom --as alice --json peek "$reply" | jq -r .message.subject)" = "Re: Lunch" ]
[ "$(mailroom --as alice --json peek "$reply" | jq -r .message.reply_to)" = "$id" ]
mailroom --as alice reply "$reply" -m "great" > /dev/null
third=$(mailroom --as bob --json inbox | jq -r '.messages[] | select(.reply_to != null) | .id')
[ "$(mailroom --as bob --json peek "$third" | jq -r .message.subject)" = "Re: Lunch" ]
mailroom --as bob thread "$id" >> "$t/out"
thread_id=$(mailroom --as bob --json peek "$id" | jq -r .message.thread_id)
[ "$(mailroom --as bob --json thread "$thread_id" | jq '.messages | length')" = 3 ]
expect_golden "$t/out"
