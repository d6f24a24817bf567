#!/usr/bin/env bash
# integration/hosts_failover.sh: the combined run on real network namespaces (netns_common.bash).
# Two database hosts — a primary and a synchronous streaming standby (pg_basebackup -R, then
# synchronous_standby_names set on the primary with ALTER SYSTEM) — and two agent hosts whose
# one store URL names both (target_session_attrs=read-write). Both agent hosts send with
# idempotency keys; in the middle, the second agent host's link is cut and healed, then the
# primary is killed (kill -9: a dead machine) and the standby promoted. A send that fails is sent
# again with the same key, as docs/several-hosts.md says. Afterwards: every acknowledged id is on
# the new primary, no message is stored twice, a `wait` started before the failover returns mail
# sent after it, and every command works without a configuration change; the host that accepted
# the writes is remembered in $XDG_CACHE_HOME/mailroom/pg-hosts and tried first.
. "$(dirname "$0")/common.sh"
. "$integration_dir/netns_common.bash"
total=${MAILROOM_HOSTS_SENDS:-1000}
[ "${MAILROOM_SANITIZED:-0}" = 1 ] && total=40
loops=2 # per agent host
per_loop=$((total / 4))

net_add db1 1
net_add db2 2
net_add a1 11
net_add a2 12
pg_start db1 5432
on db1 psql -X -q -h "$(net_addr 1)" -U postgres -d postgres -c "CREATE DATABASE mail" > /dev/null
pg_start db2 5432 db1
psql_on db1 5432 "ALTER SYSTEM SET synchronous_standby_names = 'db2'" > /dev/null
psql_on db1 5432 "SELECT pg_reload_conf()" > /dev/null
for _ in $(seq 1 100); do
  [ "$(psql_on db1 5432 "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'")" = 1 ] && break
  sleep 0.1
done
[ "$(psql_on db1 5432 "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'")" = 1 ]

url="postgresql://postgres@$(net_addr 1):5432,$(net_addr 2):5432/mail?target_session_attrs=read-write"
for h in a1 a2; do
  mkdir -p "$t/$h/cache"
  printf '[store]\nurl = "%s"\ntimeout = "3s"\n' "$url" > "$t/$h/mailroom.toml"
done
unset MAILROOM_DB
run() {
  local h=$1
  shift
  (cd "$t/$h" && XDG_CACHE_HOME="$t/$h/cache" on "$h" "$MAILROOM" "$@")
}
echo "setup done $(date +%T.%N)" >&2
run a1 init > /dev/null
run a1 agents add bob carol s11 s12 s21 s22 > /dev/null

# send_loop HOST N: sender sHOSTN sends per_loop messages, each until acknowledged (exit 0),
# again with the same key after a failure; prints every acknowledged id.
send_loop() {
  local h=$1 n=$2 i status tries
  for i in $(seq 1 "$per_loop"); do
    tries=0
    while true; do
      status=0
      run "a$h" --as "s$h$n" --json send bob -s "s$h$n-$i" -m x --idempotency-key "k-s$h$n-$i" \
        >> "$t/acked.s$h$n" 2>> "$t/errors.s$h$n" || status=$?
      [ "$status" = 0 ] && break
      echo "s$h$n $i exit $status" >> "$t/failures"
      tries=$((tries + 1))
      [ "$tries" -lt 60 ] || { echo "s$h$n $i never acknowledged" >> "$t/lost"; break; }
      sleep 0.2
    done
  done
}

run a2 --as carol --json wait --type notification --timeout 120s > "$t/wait.json" 2> "$t/wait.err" &
waiter=$!
pids=()
for h in 1 2; do
  for n in $(seq 1 "$loops"); do
    send_loop "$h" "$n" &
    pids+=($!)
  done
done
acked() { cat "$t"/acked.* 2> /dev/null | wc -l; }
# A quarter in: cut the second agent host's link for 2 s.
while [ "$(acked)" -lt $((total / 4)) ]; do sleep 0.1; done
echo "cut $(date +%T.%N)" >&2
net_cut a2
sleep 2
net_heal a2
# Half-way: the primary dies; the standby is promoted.
while [ "$(acked)" -lt $((total / 2)) ]; do sleep 0.1; done
echo "kill $(date +%T.%N)" >&2
pg_kill db1
killed_at=$(date +%s.%N)
pg_promote db2
run a1 --as s11 send carol --type notification -s "after the failover" -m x > /dev/null
for pid in "${pids[@]}"; do wait "$pid"; done
echo "senders done $(date +%T.%N)" >&2
wait "$waiter"
echo "failover: $(cat "$t/failures" 2> /dev/null | wc -l) failed tries, promoted $(awk -v k="$killed_at" -v n="$(date +%s.%N)" 'BEGIN { printf "%.1f", n - k }') s ago" >&2

[ ! -s "$t/lost" ] || { cat "$t/lost" "$t"/errors.* >&2; exit 1; }
jq -e '.message.subject == "after the failover"' "$t/wait.json" > /dev/null
# Every acknowledged id is on the new primary, once; nothing else is.
cat "$t"/acked.* | jq -r .id | sort -u > "$t/acked.ids"
[ "$(wc -l < "$t/acked.ids")" -eq "$total" ]
psql_on db2 5432 "SELECT id FROM beads WHERE subject LIKE 's%-%' ORDER BY id" > "$t/stored.ids"
diff "$t/acked.ids" "$t/stored.ids"
[ "$(psql_on db2 5432 "SELECT count(DISTINCT subject) FROM beads WHERE subject LIKE 's%-%'")" -eq "$total" ]
# Commands on both hosts, unchanged configuration, reach the new primary; the host that took the
# writes is remembered and tried first.
for h in a1 a2; do
  [ "$(run "$h" --as bob --json count | jq .unread)" -eq "$total" ]
  grep -qx "$(net_addr 2):5432" "$t/$h"/cache/mailroom/pg-hosts/*
done
# A corrupt memory is ignored.
for f in "$t"/a1/cache/mailroom/pg-hosts/*; do printf 'garbage\0\n' > "$f"; done
[ "$(run a1 --as bob --json count | jq .unread)" -eq "$total" ]
grep -qx "$(net_addr 2):5432" "$t"/a1/cache/mailroom/pg-hosts/*
