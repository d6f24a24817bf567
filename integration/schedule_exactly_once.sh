#!/usr/bin/env bash
# integration/schedule_exactly_once.sh: four `schedule run-due` processes racing on one SQLite
# store over 200 due slots fire each slot once and lose none; a firer killed -9 mid-run leaves
# nothing half written, and the next run fires every slot it had not, once (contract "Schedules",
# "Firing, exactly once per slot")
. "$(dirname "$0")/common.sh"
. "$integration_dir/schedule_due_records.bash"
workspace alice bob carol
n=200

due_schedules "$n" alice bob s > "$t/due.jsonl"
mailroom import "$t/due.jsonl" > /dev/null
pids=()
for p in 1 2 3 4; do
  "$MAILROOM" --json schedule run-due > "$t/fired.$p" &
  pids+=("$!")
done
for pid in "${pids[@]}"; do wait "$pid"; done
check_fired_once "$n" bob "$t"/fired.*
# Every schedule has its one firing and moved on to its next slot.
mailroom --as alice --json schedule list | jq -e --argjson n "$n" '.schedules | length == $n
  and all(.[]; .last.outcome == "sent" and .next_at != null)' > /dev/null
[ "$(mailroom --json schedule run-due | jq '.fired | length')" = 0 ] # nothing left due

# Killed -9 part way: what it committed stays, the rest fires on the next run, each once.
m=600
[ "${MAILROOM_SANITIZED:-0}" = 1 ] && m=300
due_schedules "$m" carol carol k > "$t/more.jsonl"
mailroom import "$t/more.jsonl" > /dev/null
"$MAILROOM" --json schedule run-due > "$t/killed" &
pid=$!
for _ in $(seq 1 400); do
  fired=$(mailroom --as carol --json count | jq .unread)
  [ "$fired" -ge 50 ] && break
  sleep 0.01
done
kill -9 "$pid"
wait "$pid" || true
before=$(mailroom --as carol --json count | jq .unread)
[ "$before" -lt "$m" ] || skip "the firer finished before it was killed (a fast machine): nothing to check"
mailroom --json schedule run-due > "$t/rest"
jq -e --argjson want "$((m - before))" '[.fired[] | select(.outcome == "sent")] | length == $want' "$t/rest" > /dev/null
[ "$(mailroom --as carol --json count | jq .unread)" = "$m" ]
[ "$(mailroom --as carol --json inbox --no-limit | jq '[.messages[].schedule] | unique | length')" = "$m" ]
