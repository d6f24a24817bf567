#!/usr/bin/env bash
# integration/postgres_waiters_server_down.sh: `wait`, `watch` and `send --wait-reply` started while
# the PostgreSQL server is down wait for it (several-hosts.md §7): a `store_retry` warning per try,
# and once the server is back they work as if it had never gone. A wait whose --timeout passes
# while the server is still down exits 5 at its timeout, not at once. A refused login is not
# waited for.
. "$(dirname "$0")/common.sh"
. "$integration_dir/pg_common.bash"
mailroom init --db "$MAILROOM_DB" > /dev/null
mailroom agents add worker helper lead > /dev/null

pg_halt
# Down for longer than the wait's timeout: it tries until then, then exit 5.
start=$(date +%s%N)
expect_exit 5 mailroom --as worker wait --read --timeout 1500ms 2> "$t/short.err"
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
[ "$elapsed_ms" -ge 1400 ] || { echo "gave up after $elapsed_ms ms, before its timeout" >&2; exit 1; }
grep -q "warning: opening the store: cannot connect to postgresql at \"$pg_dir:5432/mail\"" "$t/short.err" ||
  { cat "$t/short.err" >&2; exit 1; }
grep -q "^mailroom wait: cannot connect to postgresql" "$t/short.err"

# Started while it is down: each waits for it.
mailroom --as worker --json wait --read --timeout 60s > "$t/got.json" 2> "$t/wait.err" &
waiter=$!
"$MAILROOM" --as helper watch --exec cat > "$t/watch.out" 2> "$t/watch.err" &
watcher=$!
mailroom --as lead --json send helper --type task_request -s ping -m "ping body" --wait-reply --timeout 60s > "$t/reply.json" 2> "$t/send.err" &
sender=$!
sleep 2
for pid in $waiter $watcher $sender; do kill -0 "$pid"; done # none gave up
pg_resume
job=$(send_id --as lead worker -s job -m "the job")
wait "$waiter"
wait "$sender" # answered by the watcher's handler
kill -TERM "$watcher"
wait "$watcher" || true
[ "$(jq -r .message.id "$t/got.json")" = "$job" ]
jq -e '.reply.body == "ping body" and .outcome == "replied"' "$t/reply.json" > /dev/null
grep -q "^Done " "$t/watch.out"
for f in wait watch send; do
  grep -q "opening the store: cannot connect to postgresql" "$t/$f.err" || { echo "$f: no store_retry warning" >&2; cat "$t/$f.err" >&2; exit 1; }
done
grep -q '"code":"store_retry"' "$t/wait.err"
[ "$(mailroom --as worker --json count | jq .unread)" -eq 0 ]

# A login the server refuses is a configuration error: exit 5 at once, no retry.
start=$(date +%s%N)
expect_exit 5 mailroom --db "postgresql:///mail?host=$pg_dir&user=nobody_here" --as worker wait --timeout 30s 2> "$t/login.err"
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
[ "$elapsed_ms" -lt 10000 ] || { echo "a refused login was retried for $elapsed_ms ms" >&2; exit 1; }
not grep -q "trying again" "$t/login.err"
