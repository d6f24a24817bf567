#!/usr/bin/env bash
# integration/hosts_dead_link.sh: a database host and two agent hosts in network namespaces
# (netns_common.bash), [store] timeout = 2s. A link that dies under a command never leaves it
# hanging: a send stuck on a lock when its link is cut exits 5 within the timeout (the server
# never answers, TCP would retry for minutes); a send whose COMMIT got no answer looks its id up
# on a new connection (found: success; unreachable: exit 5 naming the id and the recipe); a
# waiter whose idle link dies reconnects with backoff and returns the mail sent meanwhile; hooks
# during the cut all exit 0 within their budget. A second cut is an nftables drop rule.
. "$(dirname "$0")/common.sh"
. "$integration_dir/netns_common.bash"
net_add db 1
net_add a1 11
net_add a2 12
pg_start db 5432
on db psql -X -q -h "$(net_addr 1)" -U postgres -d postgres -c "CREATE DATABASE mail" > /dev/null

url="postgresql://postgres@$(net_addr 1):5432/mail"
for h in a1 a2; do
  mkdir -p "$t/$h"
  printf '[store]\nurl = "%s"\ntimeout = "2s"\n' "$url" > "$t/$h/mailroom.toml"
done
unset MAILROOM_DB
# run HOST ARGS...: mailroom on HOST, in its directory.
run() {
  local h=$1
  shift
  (cd "$t/$h" && on "$h" "$MAILROOM" "$@")
}
run a1 init > /dev/null
run a1 agents add alice bob carol > /dev/null
run a1 --as alice send bob -s "before any cut" -m x > /dev/null
# Seconds since the epoch with a fraction, and "is A - B below LIMIT".
now() { date +%s.%N; }
within() { awk -v a="$1" -v b="$2" -v l="$3" 'BEGIN { exit !(a - b < l) }'; }
limit=8 # the 2 s timeout, a 2 s reconnect, process start-up and a loaded machine
[ "${MAILROOM_SANITIZED:-0}" = 1 ] && limit=20

# 1. The link dies while a send waits for the server (stuck behind a lock): exit 5, bounded.
psql_on db 5432 "BEGIN; LOCK TABLE beads IN EXCLUSIVE MODE; SELECT pg_sleep(5); COMMIT" > /dev/null &
locker=$!
sleep 0.5
start=$(now)
run a1 --as alice send bob -s "stuck behind a lock" -m x > /dev/null 2> "$t/stuck.err" &
sender=$!
sleep 0.7
net_cut a1
status=0
wait "$sender" || status=$?
end=$(now)
net_heal a1
[ "$status" = 5 ] || { cat "$t/stuck.err" >&2; exit 1; }
within "$end" "$start" "$limit"
grep -q "no answer within 2000 ms" "$t/stuck.err"
wait "$locker"

# 2. COMMIT gets no answer (a synchronous standby that does not exist holds it) and the link is
# cut: the look-up cannot reach the server either, so the outcome is unknown, and the error says
# how to send it again.
psql_on db 5432 "ALTER SYSTEM SET synchronous_standby_names = 'nobody'" > /dev/null
psql_on db 5432 "SELECT pg_reload_conf()" > /dev/null
start=$(now)
run a1 --as alice send bob -s "commit in doubt" -m x --idempotency-key doubt-1 > /dev/null 2> "$t/doubt.err" &
sender=$!
# Cut only once the COMMIT is waiting for the standby: a slow start (as under ASan) would otherwise
# be cut before it connects, which is the first case, not this one.
for _ in $(seq 1 200); do
  [ "$(psql_on db 5432 "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep'")" -ge 1 ] && break
  sleep 0.1
done
net_cut a1
status=0
wait "$sender" || status=$?
end=$(now)
net_heal a1
[ "$status" = 5 ] || { cat "$t/doubt.err" >&2; exit 1; }
within "$end" "$start" "$limit"
grep -q "outcome unknown for mr-[0-9a-f]*; send again with the same --idempotency-key" "$t/doubt.err"
doubt_id=$(grep -o "outcome unknown for mr-[0-9a-f]*" "$t/doubt.err" | grep -o "mr-[0-9a-f]*")

# Once the server lets the commit finish, the same key replays it: nothing new is stored.
psql_on db 5432 "ALTER SYSTEM RESET synchronous_standby_names" > /dev/null
psql_on db 5432 "SELECT pg_reload_conf()" > /dev/null
for _ in $(seq 1 50); do
  [ "$(psql_on db 5432 "SELECT count(*) FROM beads WHERE id = '$doubt_id'")" = 1 ] && break
  sleep 0.1
done
run a1 --as alice --json send bob -s "commit in doubt" -m x --idempotency-key doubt-1 > "$t/again.json"
[ "$(jq -r .id "$t/again.json")" = "$doubt_id" ]
[ "$(psql_on db 5432 "SELECT count(*) FROM beads WHERE subject = 'commit in doubt'")" = 1 ]

# 3. COMMIT gets no answer with the link up: the send ends its stuck session on a new connection
# (the commit becomes final) and finds its message: success, exit 0, with the id it stored.
psql_on db 5432 "ALTER SYSTEM SET synchronous_standby_names = 'nobody'" > /dev/null
psql_on db 5432 "SELECT pg_reload_conf()" > /dev/null
run a1 --as alice --json send bob -s "commit found" -m x > "$t/found.json" 2> "$t/found.err"
found_id=$(jq -r .id "$t/found.json")
[ "$(psql_on db 5432 "SELECT count(*) FROM beads WHERE id = '$found_id'")" = 1 ]
psql_on db 5432 "ALTER SYSTEM RESET synchronous_standby_names" > /dev/null
psql_on db 5432 "SELECT pg_reload_conf()" > /dev/null

# 4. A waiter's idle link dies (keepalives notice it), mail arrives meanwhile from the other
# host, the link comes back: the waiter reconnects and returns that mail, exit 0. Hooks run
# during the cut: each exits 0 within its budget (1 s) with nothing on stdout.
run a2 --as carol --json wait --type notification --timeout 60s > "$t/wait.json" 2> "$t/wait.err" &
waiter=$!
sleep 1
net_cut a2
run a1 --as alice send carol --type notification -s "sent during the cut" -m x > /dev/null
for i in 1 2 3 4 5; do
  start=$(now)
  status=0
  run a2 --as carol check --inject > "$t/hook.$i.out" 2> "$t/hook.$i.err" || status=$?
  end=$(now)
  [ "$status" = 0 ]
  [ ! -s "$t/hook.$i.out" ]
  within "$end" "$start" 3
done
sleep 5 # keepalives: probed after 1 s idle, 3 probes 1 s apart
net_heal a2
wait "$waiter"
jq -e '.message.subject == "sent during the cut"' "$t/wait.json" > /dev/null
grep -q "store_retry\|trying again in" "$t/wait.err"

# 5. The same with an nftables drop rule instead of a link down: a read is bounded too.
if command -v nft > /dev/null; then
  net_drop a1
  start=$(now)
  status=0
  run a1 --as bob count > /dev/null 2> "$t/drop.err" || status=$?
  end=$(now)
  net_undrop a1
  [ "$status" = 5 ]
  within "$end" "$start" "$limit"
  run a1 --as bob count > /dev/null
fi
