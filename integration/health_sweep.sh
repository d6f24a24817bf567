#!/usr/bin/env bash
# integration/health_sweep.sh: off by default (says so, changes nothing); --dry-run says what a pass
# would do; a pass redelivers (labelled in inbox, read and check --inject, notify run) and, at the
# cap, escalates once from mailroom; the lines and JSON of the contract
. "$(dirname "$0")/common.sh"
workspace alice bob
# The schedule is set before the send: a delivery's first due time is fixed when it is stored.
sed -i 's/^first_after = .*/first_after = "1ms"/; s/^backoff = .*/backoff = 1.0/; s/^max_attempts = .*/max_attempts = 1/' mailroom.toml
task=$(send_id --as alice bob "deploy the thing" --type task_request)
mailroom --as bob read "$task" > /dev/null

[ "$(mailroom sweep)" = "redelivery is off (set [delivery.redelivery] enabled = true)" ]
mailroom --json sweep | jq -e '.ok and .enabled == false and .dry_run == false and .redelivered == [] and .escalated == []' > /dev/null
sleep 0.01
mailroom sweep --dry-run > "$t/dry"
[ "$(sed -n 1p "$t/dry")" = "redelivery is off (set [delivery.redelivery] enabled = true)" ]
[ "$(sed -n 2p "$t/dry")" = "Would redeliver $task to bob (attempt 1 of 1)" ]
[ "$(mailroom --as bob --json count | jq .unread)" = 0 ]

sed -i 's/^enabled = false/enabled = true/' mailroom.toml
cat > "$t/notify.sh" <<SH
#!/bin/sh
printf '%s|' "\$@" >> "$t/notified"
SH
chmod +x "$t/notify.sh"
sed -i "s|^# command = .*|command = [\"$t/notify.sh\", \"{to}\", \"{from}\", \"{id}\"]|" mailroom.toml
[ "$(mailroom sweep --dry-run --from bob)" = "Nothing is due" ]
[ "$(mailroom sweep)" = "Redelivered $task to bob (attempt 1 of 1)" ]
[ "$(cat "$t/notified")" = "bob|alice|$task|" ]

# Labelled wherever it is shown.
mailroom --as bob inbox | grep -Eq "^$task .*\(redelivered, attempt 1, first sent [0-9]+s ago\) de"
mailroom --as bob check --inject | grep -Eq -- "^- \[reply expected\] $task from alice \(redelivered, attempt 1, first sent [0-9]+s ago\)"
mailroom --as bob --json inbox | jq -e --arg id "$task" '.messages[0].id == $id and .messages[0].redelivered.attempt == 1
  and (.messages[0].redelivered.first_sent_at == .messages[0].created_at)' > /dev/null
mailroom --as bob read "$task" | grep -Eqx "Delivery: redelivered, attempt 1, first sent [0-9]+s ago"

sleep 0.01
mailroom sweep > "$t/out"
[[ "$(cat "$t/out")" =~ ^Told\ alice\ that\ bob\ has\ not\ acknowledged\ 1\ message\(s\):\ (mr-[0-9a-f]+)$ ]]
escalation=${BASH_REMATCH[1]}
mailroom --as alice --json read "$escalation" |
  jq -e --arg t "$task" '.message.from == "mailroom" and .message.type == "escalation" and .message.ack_state == "none"
    and (.message.body | contains($t)) and .message.priority == 0' > /dev/null
[ "$(mailroom sweep)" = "" ]   # nothing more: escalated deliveries left the due set
[ "$(mailroom --as alice --json count | jq .total)" = 1 ]
mailroom --as alice --json status "$task" | jq -e '.recipients[0].ack_state == "escalated" and .recipients[0].attempts == 1' > /dev/null
mailroom --json sweep | jq -e '.ok and .enabled and .redelivered == [] and .escalated == []' > /dev/null

# -q drops sweep's stdout (cli.md "Quiet"), not its work: a second task is redelivered in silence.
second=$(send_id --as alice bob "quietly" --type task_request)
mailroom --as bob read "$second" > /dev/null
sleep 0.01
[ -z "$(mailroom -q sweep)" ]
mailroom --as bob --json inbox | jq -e --arg id "$second" 'any(.messages[]; .id == $id and .redelivered.attempt == 1)' > /dev/null
