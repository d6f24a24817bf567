#!/usr/bin/env bash
# integration/health_ack.sh: `ack` acks the caller's delivery (tracked or not), says so again,
# 3 for an unknown id, 4 for a stranger (naming the recipients and --for), --for for an operator;
# several ids each reported with the worst exit code; reading is not an ack
. "$(dirname "$0")/common.sh"
workspace alice bob carol
task=$(send_id --as alice bob "please deploy" --type task_request)
note=$(send_id --as alice bob "fyi")
[ "$(mailroom --as bob --json read "$task" | jq -r .message.ack_state)" = awaiting_ack ]
[ "$(mailroom --as bob --json peek "$task" | jq -r .message.ack_state)" = awaiting_ack ]

[ "$(mailroom --as bob ack "$task")" = "Acked $task" ]
[ "$(mailroom --as bob ack "$task")" = "Already acked $task" ]
[ "$(mailroom --as bob ack "${task:3:6}")" = "Already acked $task" ] # a unique prefix
[ "$(mailroom --as bob ack "$note")" = "Acked $note" ]               # untracked: acked anyway
mailroom --as alice --json status "$task" |
  jq -e '.recipients[0].ack_state == "acked" and .recipients[0].acked_at != null and .recipients[0].acted_by == null' > /dev/null
# Acking is not reading: the note stays unread.
[ "$(mailroom --as bob --json count | jq .unread)" = 1 ]

expect_exit 3 mailroom --as bob ack mr-0000000000000000
expect_exit 4 mailroom --as carol ack "$task" 2> "$t/err"
grep -q 'hint: its recipients are bob; an operator acts for one with --for NAME' "$t/err"

# An operator acts for bob; the record says who acted.
other=$(send_id --as alice bob "another" --ack)
mailroom --as carol ack --for bob "$other" > "$t/out" 2> "$t/err"
[ "$(cat "$t/out")" = "Acked $other" ]
grep -qx 'mailroom ack: acting for bob' "$t/err"
mailroom --as alice --json status "$other" | jq -e '.recipients[0].acted_by == "carol"' > /dev/null
expect_exit 2 mailroom --as carol ack --for 'not a name' "$other"

# Several ids: each is reported, the exit code is the worst.
third=$(send_id --as alice bob "third" --ack)
expect_exit 4 mailroom --as bob --json ack "$third" "$other" mr-0000000000000000 "$(send_id --as alice carol x)" > "$t/json" 2> /dev/null
jq -e --arg t "$third" --arg o "$other" '.ok == false and .ids == [$t] and .already == [$o]
  and (.failed | length) == 2 and .failed[0].code == "not_found" and .failed[1].code == "not_recipient"' "$t/json" > /dev/null
