#!/usr/bin/env bash
# Several hosts, for real (issue #38): rows measured on network namespaces built by
# integration/netns_common.bash (a database host, an agent host, a second database host for the
# standby), each against a baseline measured in the same run.
#   SH1  hook latency (check --inject, 1 unread) from an agent host through PgBouncer in
#        transaction mode, against the same hook straight to the server (ratio p50 and p99)
#   SH2  server connections (pg_stat_activity, client backends) while 50 agents wait on the
#        store at once, through the pooler against direct (waiters poll every 2 s through it)
#   SH3  seconds from the primary's death (kill -9) to the first acknowledged send on a URL
#        naming the primary and its synchronous standby, the standby promoted at once (as a
#        failover manager would); sends are tried every 100 ms
#   SH4  one send after that failover with the dead primary's host unreachable (its link cut):
#        with the remembered host (tried first) against a fresh cache (libpq tries the dead
#        host first and waits its connect timeout)
# Needs root (network namespaces); prints markdown rows and writes $out/several_hosts.tsv.
# Usage: testdata/bench/several_hosts.sh <mailroom binary>
# Env: BENCH_HOSTS_RUNS (default 200 hooks per series), BENCH_OUT (results dir).
set -euo pipefail

MAILROOM=$(realpath "$1")
runs=${BENCH_HOSTS_RUNS:-200}
out=${BENCH_OUT:-$(dirname "$MAILROOM")/bench}
here=$(cd "$(dirname "$0")" && pwd)
integration_dir=$(cd "$here/../../integration" && pwd)
mkdir -p "$out"
results="$out/several_hosts.tsv"
: > "$results"
# shellcheck source=testdata/bench/lib.sh
source "$here/lib.sh"

test_name=several_hosts
t=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-bench-hosts.XXXXXX")
skip() {
  echo "several_hosts.sh: skipped: $*" >&2
  exit 0
}
export HOME="$t/home" XDG_CACHE_HOME="$t/cache"
mkdir -p "$HOME"
# shellcheck source=integration/netns_common.bash
. "$integration_dir/netns_common.bash"
timer="$t/mr-timer"
cc -O2 -Wall "$here/timer.c" -o "$timer"

net_add db1 1
net_add db2 2
net_add a1 11
pg_start db1 5432
on db1 psql -X -q -h "$(net_addr 1)" -U postgres -d postgres -c "CREATE DATABASE mail" > /dev/null
pgbouncer_start db1 6432 5432 transaction
direct="postgresql://postgres@$(net_addr 1):5432/mail"
pooled="postgresql://postgres@$(net_addr 1):6432/mail?pooler=transaction"
m() { on a1 "$MAILROOM" "$@"; }
m --db "$direct" init > /dev/null
m --db "$direct" agents add alice bob > /dev/null
m --db "$direct" --as alice send bob -s "hello" -m x > /dev/null
m --db "$direct" agents add $(for i in $(seq 1 50); do echo "w$i"; done) > /dev/null

# SH1
hook_series() {
  on a1 "$timer" -o "$t/$1.tsv" -n "$runs" -e "$t/$1.err" -- "$MAILROOM" --db "$2" --as bob check --inject
  if awk '$5 != 0 { bad = 1 } END { exit !bad }' "$t/$1.tsv"; then
    echo "several_hosts.sh: a hook ($1) exited non-zero" >&2
    exit 1
  fi
  tsv_stats "$t/$1.tsv" 1
}
d=$(hook_series direct "$direct")
p=$(hook_series pooled "$pooled")
record SH1 "hook (check --inject) through PgBouncer (transaction) vs direct, $runs each" \
  "p50 $(cut -f1 <<< "$p") vs $(cut -f1 <<< "$d") ms ($(ratio "$(cut -f1 <<< "$p")" "$(cut -f1 <<< "$d")")x); p99 $(cut -f3 <<< "$p") vs $(cut -f3 <<< "$d") ms ($(ratio "$(cut -f3 <<< "$p")" "$(cut -f3 <<< "$d")")x)" \
  "measured" info

# SH2
backends() {
  on db1 psql -X -At -h "$(net_addr 1)" -U postgres -d postgres \
    -c "SELECT count(*) FROM pg_stat_activity WHERE datname = 'mail' AND backend_type = 'client backend'"
}
waiters() {
  local url=$1 i max=0 n
  for i in $(seq 1 50); do
    m --db "$url" --as "w$i" wait --timeout 8s > /dev/null 2>&1 &
  done
  for i in $(seq 1 30); do
    n=$(backends)
    [ "$n" -gt "$max" ] && max=$n
    sleep 0.2
  done
  wait
  echo "$max"
}
cd_direct=$(waiters "$direct")
cd_pooled=$(waiters "$pooled")
record SH2 "server connections, 50 agents waiting at once: pooled vs direct (max seen)" \
  "$cd_pooled vs $cd_direct" "measured" info

# SH3 and SH4
pg_start db2 5432 db1
psql_on db1 5432 "ALTER SYSTEM SET synchronous_standby_names = 'db2'" > /dev/null
psql_on db1 5432 "SELECT pg_reload_conf()" > /dev/null
for _ in $(seq 1 100); do
  [ "$(psql_on db1 5432 "SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'")" = 1 ] && break
  sleep 0.1
done
multi="postgresql://postgres@$(net_addr 1):5432,$(net_addr 2):5432/mail?target_session_attrs=read-write"
mkdir -p "$t/cfg"
printf '[store]\nurl = "%s"\ntimeout = "3s"\n' "$multi" > "$t/cfg/mailroom.toml"
(cd "$t/cfg" && m --as alice send bob -s "before" -m x > /dev/null)
pg_kill db1
killed=$(date +%s.%N)
pg_promote db2 &
promoter=$!
i=0
until (cd "$t/cfg" && m --as alice send bob -s "after" -m x --idempotency-key after > /dev/null 2>&1); do
  i=$((i + 1))
  [ "$i" -lt 600 ] || { echo "several_hosts.sh: no send succeeded after the failover" >&2; exit 1; }
  sleep 0.1
done
first=$(date +%s.%N)
wait "$promoter"
record SH3 "primary killed (kill -9), synchronous standby promoted at once: time to the first acknowledged send" \
  "$(awk -v a="$killed" -v b="$first" 'BEGIN { printf "%.2f s", b - a }')" "measured" info

net_cut db1
one_send() {
  local s e
  s=$(date +%s.%N)
  (cd "$t/cfg" && m --as alice send bob -s "one" -m x > /dev/null)
  e=$(date +%s.%N)
  awk -v a="$s" -v b="$e" 'BEGIN { printf "%.0f", (b - a) * 1000 }'
}
remembered=$(one_send)
rm -rf "$XDG_CACHE_HOME/mailroom/pg-hosts"
fresh=$(one_send)
record SH4 "one send after the failover, dead primary unreachable: remembered host vs fresh cache" \
  "$remembered ms vs $fresh ms ($(ratio "$remembered" "$fresh")x)" "measured" info

echo "| id | measure | result | target | verdict |"
echo "|---|---|---|---|---|"
awk -F'\t' '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$results"
