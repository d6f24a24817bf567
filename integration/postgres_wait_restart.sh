#!/usr/bin/env bash
# integration/postgres_wait_restart.sh: `wait` and `send --wait-reply` survive a server restart
# (pg_ctl restart -m fast, and a crash: stop -m immediate, then a start): they ride out the
# outage with backoff (a store_retry warning), reconnect, and return the mail sent afterwards,
# exit 0. A wait whose deadline passes while the server is down exits 5.
. "$(dirname "$0")/common.sh"
. "$integration_dir/pg_common.bash"
mailroom init > /dev/null
mailroom agents add alice bob > /dev/null

# wait, then a fast restart under it.
"$MAILROOM" --as bob --json wait --read --type notification --timeout 60s > "$t/wait.json" 2> "$t/wait.err" &
waiter=$!
# send --wait-reply, waiting for bob's reply across the same restart.
"$MAILROOM" --as alice --json send bob --type task_request -s "sum 1 2" -m q --wait-reply --timeout 60s \
  > "$t/asked.json" 2> "$t/asked.err" &
asker=$!
for _ in $(seq 1 100); do [ "$(mailroom --as bob --json count | jq .unread)" = 1 ] && break; sleep 0.05; done
sleep 0.5 # both are blocked in their waits
pg_fast_restart
asked=$(mailroom --as bob --json inbox | jq -r '.messages[0].id')
mailroom --as alice send bob --type notification -s "after the restart" -m x > /dev/null
wait "$waiter"
jq -e '.timed_out == false and .message.subject == "after the restart"' "$t/wait.json" > /dev/null
mailroom --as bob reply "$asked" -m 3 > /dev/null
wait "$asker"
jq -e '.timed_out == false and .reply.body == "3"' "$t/asked.json" > /dev/null

# wait across a crash: the store is down for a while; the wait warns and carries on.
"$MAILROOM" --as bob --json wait --type notification --timeout 60s > "$t/crash.json" 2> "$t/crash.err" &
waiter=$!
sleep 0.5
pg_halt
sleep 1.5
pg_resume
mailroom --as alice send bob --type notification -s "after the crash" -m x > /dev/null
wait "$waiter"
jq -e '.message.subject == "after the crash"' "$t/crash.json" > /dev/null
grep -q "store_retry\|trying again in" "$t/crash.err"

# The deadline passes while the server is down: exit 5, the last failure named.
"$MAILROOM" --as bob wait --type cron_task --timeout 2s > /dev/null 2> "$t/late.err" &
waiter=$!
sleep 0.3
pg_halt
status=0
wait "$waiter" || status=$?
pg_resume
[ "$status" = 5 ]
grep -q "^mailroom wait: " "$t/late.err"
