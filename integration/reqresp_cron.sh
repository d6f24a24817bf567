#!/usr/bin/env bash
# integration/reqresp_cron.sh: a scheduler sends cron_task messages (as cron or a systemd timer
# would), the worker's cron-run `watch --once` answers each with a cron_result, and the scheduler
# collects the results with wait --reply-to.
. "$(dirname "$0")/common.sh"
mailroom agents add scheduler worker > /dev/null
cat > "$t/nightly.sh" <<'SH'
#!/bin/sh
# A cron handler: the task on stdin, the result on stdout.
printf 'ran %s (%s): ' "$MAILROOM_SUBJECT" "$MAILROOM_TYPE"
wc -c | tr -d ' '
SH
chmod +x "$t/nightly.sh"

ids=()
for night in 1 2 3; do
  ids+=("$(send_id --as scheduler worker --type cron_task -s "night $night" -m "payload-$night")")
done
# The worker's crontab line: process what is waiting, then exit.
mailroom --as worker watch --once --exec "$t/nightly.sh" > "$t/watch.out"
[ "$(grep -c '^Replied to ' "$t/watch.out")" = 3 ]

for i in 0 1 2; do
  mailroom --as scheduler --json wait --reply-to "${ids[$i]}" --timeout 5s --read > "$t/result.json"
  jq -e --arg n "$((i + 1))" '.message.type == "cron_result"
       and .message.body == ("ran night " + $n + " (cron_task): 9")' "$t/result.json" > /dev/null
done
# Every cron_task is acked; nothing is left for the worker.
for id in "${ids[@]}"; do
  mailroom --as scheduler --json status "$id" | jq -e '.recipients[0].ack_state == "acked"' > /dev/null
done
[ "$(mailroom --as worker --json count | jq .unread)" = 0 ]
mailroom --as worker watch --once --exec "$t/nightly.sh" > "$t/again.out"
[ ! -s "$t/again.out" ]
