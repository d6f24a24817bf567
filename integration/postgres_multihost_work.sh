#!/usr/bin/env bash
# integration/postgres_multihost_work.sh: the request/response and health layers across two
# "hosts" (processes with their own directories and configs) on one PostgreSQL store: a `wait` on
# one host is woken by a `send` on the other; two `watch` workers, one per host, handle every
# request exactly once; two racing `sweep` passes, one per host, redeliver each due delivery once.
. "$(dirname "$0")/common.sh"
. "$integration_dir/pg_common.bash"
count=30
[ "${MAILROOM_SANITIZED:-0}" = 1 ] && count=20
unset MAILROOM_DB # each host finds the store through its own mailroom.toml

h1=$(host_dir host1)
h2=$(host_dir host2)
for dir in "$h1" "$h2"; do
  printf '[delivery.redelivery]\nenabled = true\nfirst_after = "1s"\nbackoff = 100.0\nmax_attempts = 1\n' >> "$dir/mailroom.toml"
done
(cd "$h1" && mailroom init > /dev/null && mailroom agents add boss worker alice bob > /dev/null)

# --- wait on host 2, woken by a send on host 1 -------------------------------------------------
(cd "$h2" && "$MAILROOM" --as alice --json wait --timeout 30s > "$t/waited.json") &
waiter=$!
sleep 1
kill -0 "$waiter" # still waiting: nothing was there to find
(cd "$h1" && mailroom --as bob send alice "across hosts" > /dev/null)
wait "$waiter"
jq -e '.timed_out == false and .message.subject == "across hosts"' "$t/waited.json" > /dev/null

# --- two watchers, one per host, share the requests ----------------------------------------------
for i in $(seq 1 "$count"); do
  (cd "$h1" && mailroom --as boss send worker "job $i" --type task_request > /dev/null)
done
export LOG="$t/handled.log"
handler=(sh -c 'printf "%s %s\n" "$MAILROOM_ID" "$WATCHER" >> "$LOG"; echo done')
(cd "$h1" && WATCHER=a "$MAILROOM" --as worker watch --once --exec "${handler[@]}" > "$t/a.out") &
a=$!
(cd "$h2" && WATCHER=b "$MAILROOM" --as worker watch --once --exec "${handler[@]}" > "$t/b.out") &
b=$!
wait "$a"
wait "$b"
[ "$(wc -l < "$LOG")" = "$count" ]
[ "$(cut -d' ' -f1 "$LOG" | sort -u | wc -l)" = "$count" ]
(cd "$h2" && [ "$(mailroom --as worker --json count | jq .unread)" = 0 ])
# Every request was answered once: the replies are the acks.
[ "$(pg_sql "SELECT count(*) FROM beads WHERE type = 'task_response'")" = "$count" ]
[ "$(pg_sql "SELECT count(*) FROM deliveries WHERE recipient = 'worker' AND ack_state <> 'acked'")" = 0 ]
echo "watcher a handled $(grep -c ' a$' "$LOG"), b handled $(grep -c ' b$' "$LOG")" >&2

# --- two sweeps, one per host, at once ---------------------------------------------------------
for i in $(seq 1 "$count"); do
  (cd "$h1" && mailroom --as alice send bob "task $i" --ack > /dev/null)
done
sleep 1.1
(cd "$h1" && "$MAILROOM" --json sweep > "$t/s1.json") &
s1=$!
(cd "$h2" && "$MAILROOM" --json sweep > "$t/s2.json") &
s2=$!
wait "$s1"
wait "$s2"
[ "$(jq -s '[.[].redelivered[]] | length' "$t/s1.json" "$t/s2.json")" = "$count" ]
[ "$(jq -s '[.[].redelivered[].id] | unique | length' "$t/s1.json" "$t/s2.json")" = "$count" ]
[ "$(pg_sql "SELECT count(*) FROM deliveries WHERE recipient = 'bob' AND sender = 'alice' AND attempts = 1")" = "$count" ]
