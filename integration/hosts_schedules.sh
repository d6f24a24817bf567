#!/usr/bin/env bash
# integration/hosts_schedules.sh: a database host and two agent hosts in network namespaces
# (netns_common.bash) on one PostgreSQL store. Two firers on each agent host race over 200 due
# slots: each slot fires once and none is lost; then a recurring schedule every second, fired by
# `run-due --loop` on both hosts at once, sends each of its slots once (contract "Schedules",
# "Firing, exactly once per slot": several hosts).
. "$(dirname "$0")/common.sh"
. "$integration_dir/netns_common.bash"
. "$integration_dir/schedule_due_records.bash"
net_add db 1
net_add a1 11
net_add a2 12
pg_start db 5432
on db psql -X -q -h "$(net_addr 1)" -U postgres -d postgres -c "CREATE DATABASE mail" > /dev/null

url="postgresql://postgres@$(net_addr 1):5432/mail"
for h in a1 a2; do
  mkdir -p "$t/$h"
  printf '[store]\nurl = "%s"\n' "$url" > "$t/$h/mailroom.toml"
done
unset MAILROOM_DB
run() {
  local h=$1
  shift
  (cd "$t/$h" && on "$h" "$MAILROOM" "$@")
}
# mailroom (the helpers' name) runs on host a1.
mailroom() { run a1 "$@"; }
run a1 init > /dev/null
run a1 agents add alice bob carol > /dev/null

n=200
due_schedules "$n" alice bob s > "$t/due.jsonl"
run a1 import "$t/due.jsonl" > /dev/null
for h in a1 a1 a2 a2; do
  run "$h" --json schedule run-due > "$t/fired.$h.$RANDOM" &
done
wait
check_fired_once "$n" bob "$t"/fired.*

# A recurring schedule, two looping firers, one per host: every slot once, in order, none lost
# (a TTL longer than the 1 s period, so every message is still unread when counted).
run a2 --as alice schedule add pulse carol --every 1s --ttl 1h --overlap send -m beat > /dev/null 2>&1
loops=()
for h in a1 a2; do
  (cd "$t/$h" && exec ip netns exec "$net_prefix-$h" "$MAILROOM" schedule run-due --loop 200ms > /dev/null) &
  loops+=("$!")
done
sleep 4
for pid in "${loops[@]}"; do interrupt TERM "$pid"; done
for pid in "${loops[@]}"; do wait "$pid" || true; done
run a2 --as alice --json schedule show pulse --limit 100 > "$t/pulse"
# Every slot from the first to the last is accounted for once: sent (one message each), or, on a
# machine too loaded to keep a one-second pace, recorded missed; none twice, none lost.
jq -e '[.firings[] | select(.outcome == "sent")] | length >= 2' "$t/pulse" > /dev/null
sent=$(jq '[.firings[] | select(.outcome == "sent")] | length' "$t/pulse")
[ "$(run a1 --as carol --json count | jq .unread)" = "$sent" ]
jq -e 'def s(t): t | sub("\\.[0-9]+Z$"; "Z") | fromdate;
  [.firings[] | if .outcome == "missed" then range(s(.slot); s(.last_slot) + 1) else s(.slot) end] | sort
  | . as $all | ($all | unique | length) == ($all | length)
  and all(range(1; length); $all[.] - $all[. - 1] == 1)' "$t/pulse" > /dev/null
