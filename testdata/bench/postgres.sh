#!/usr/bin/env bash
# testdata/bench/postgres.sh: the PostgreSQL store against psql running the same SQL on the same
# server in the same run, plus wake latency and concurrent throughput. Prints markdown rows.
#   P1-P4  count, check, inbox --limit 50, send: mailroom p50 vs psql p50 (ratio) at BENCH_SIZE
#          messages (100 mailboxes, 10% unread, 400-byte bodies, as run.sh's stores)
#   P5     wait woken by a send from another process through NOTIFY: p50 and p95 from the send's
#          exit to the waiter's exit (when this build has `wait`)
#   P6     8 concurrent senders: messages per second, PostgreSQL vs the bead store
# The server is a throwaway one (scripts/pg-test-server.sh) with fsync turned back on, so sends
# pay for durability as the bead store's do.
# Usage: testdata/bench/postgres.sh <mailroom binary> [<mailroom-bench-pg-seed binary>]
# Env: BENCH_RUNS (default 200), BENCH_SIZE (default 100000), BENCH_SENDS (per sender, default 100),
#      BENCH_OUT (results dir).
set -euo pipefail

mailroom=$(realpath "$1")
seed=$(realpath "${2:-$(dirname "$1")/mailroom-bench-pg-seed}")
runs=${BENCH_RUNS:-200}
size=${BENCH_SIZE:-100000}
sends=${BENCH_SENDS:-100}
out=${BENCH_OUT:-$(dirname "$mailroom")/bench}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/mailroom-pgbench.XXXXXX")
pg_dir="/tmp/mrpg-bench-$$"
cleanup() {
  bash "$here/../../scripts/pg-test-server.sh" stop "$pg_dir" > /dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$out"
results="$out/postgres.tsv"
: > "$results"

for tool in hyperfine psql jq; do
  command -v "$tool" > /dev/null || { echo "bench: $tool is required (make deps)" >&2; exit 2; }
done

stats() {
  jq -r --argjson i "$2" '.results[$i].times | sort | map(. * 1000) as $t | ($t | length) as $n
    | [$t[($n * 0.50 | floor)], $t[($n * 0.95 | floor)], $t[$n - 1]]
    | map(. * 1000 | round / 1000) | @tsv' "$1"
}
time_pair() {
  local name=$1
  shift
  hyperfine -N --warmup 10 --runs "$runs" --export-json "$out/$name.json" "$@" > "$out/$name.log" 2>&1
}
record() { printf '%s\t%s\t%s\n' "$@" >> "$results"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
percentile() { sort -n | awk -v p="$1" '{ v[NR] = $1 } END { i = int(NR * p); if (i < 1) i = 1; printf "%.1f", v[i] }'; }

bash "$here/../../scripts/pg-test-server.sh" start "$pg_dir" "$$"
psql -X -q -h "$pg_dir" -U postgres -d postgres -c "ALTER SYSTEM SET fsync = on" -c "SELECT pg_reload_conf()" \
  -c "CREATE DATABASE bench" -c "CREATE DATABASE throughput" > /dev/null
url="postgresql:///bench?host=$pg_dir&user=postgres"
box=agent-007
echo "seeding postgresql: $size messages (100 mailboxes, 10% unread, 400-byte bodies)" >&2
"$seed" --db "$url" --messages "$size" --mailboxes 100 --unread 0.1 --body-bytes 400
psql_run() { echo "psql -X -q -o /dev/null -h $pg_dir -U postgres -d bench -f $work/$1.sql"; }
for script in count check inbox send; do
  "$seed" --print-script "$script" --mailbox "$box" > "$work/$script.sql"
done

# --- P1-P4: mailroom vs psql, same SQL, same server --------------------------------------------
n=1
for what in "count:count" "check:check" "inbox:inbox --limit 50" "send:send $box -s bench hello"; do
  name=${what%%:*}
  args=${what#*:}
  as=$box
  [ "$name" = send ] && as=agent-001
  # shellcheck disable=SC2086 # args are words
  time_pair "pg-$name" "$(psql_run "$name")" "$mailroom --db $url --as $as $args"
  read -r p_p50 p_p95 _ < <(stats "$out/pg-$name.json" 0)
  read -r m_p50 m_p95 _ < <(stats "$out/pg-$name.json" 1)
  record "P$n" "$name: mailroom p50 vs psql p50 at $size msgs ($m_p50 vs $p_p50 ms; p95 $m_p95 vs $p_p95)" \
    "$(ratio "$m_p50" "$p_p50")x"
  n=$((n + 1))
done

# --- P5: wake latency of wait through NOTIFY ----------------------------------------------------
if "$mailroom" wait --help > /dev/null 2>&1; then
  "$mailroom" --db "$url" --as agent-050 mark-read --all > /dev/null 2>&1 || true
  : > "$work/wake"
  for _ in $(seq 50); do
    "$mailroom" --db "$url" --as agent-050 wait --read --timeout 20s > /dev/null 2>&1 &
    waiter=$!
    # Until the waiter listens: its session shows up in pg_stat_activity as idle, listening.
    until [ "$(psql -X -At -h "$pg_dir" -U postgres -d bench -c "SELECT count(*) FROM pg_stat_activity
             WHERE application_name = 'mailroom' AND state = 'idle'")" -ge 1 ]; do sleep 0.01; done
    "$mailroom" --db "$url" --as agent-001 send agent-050 -s wake now > /dev/null
    sent=$(date +%s%N)
    wait "$waiter"
    woke=$(date +%s%N)
    echo "$(((woke - sent) / 1000))" >> "$work/wake"
  done
  p50=$(awk '{ print $1 / 1000 }' "$work/wake" | percentile 0.5)
  p95=$(awk '{ print $1 / 1000 }' "$work/wake" | percentile 0.95)
  record P5 "wait woken by a send on another connection (NOTIFY), 50 runs: p50 / p95" "$p50 / $p95 ms"
else
  record P5 "wait wake latency" "not measured: this build has no wait command"
fi

# --- P6: 8 concurrent senders, PostgreSQL vs the bead store -------------------------------------
throughput() { # DB -> messages per second for 8 senders x $sends
  local db=$1 start end
  "$mailroom" --db "$db" agents add bob $(seq -f 's%g' 8) > /dev/null
  start=$(date +%s%N)
  for s in $(seq 8); do
    (for i in $(seq "$sends"); do "$mailroom" --db "$db" --as "s$s" send bob "n $i" > /dev/null; done) &
  done
  wait
  end=$(date +%s%N)
  awk -v n=$((8 * sends)) -v ns=$((end - start)) 'BEGIN { printf "%.0f", n / (ns / 1e9) }'
}
# init writes a mailroom.toml where it runs: each in a directory of its own.
(mkdir "$work/beads" && cd "$work/beads" && "$mailroom" --db "$work/beads/mail.db" init > /dev/null)
(mkdir "$work/pg" && cd "$work/pg" && "$mailroom" --db "postgresql:///throughput?host=$pg_dir&user=postgres" init > /dev/null)
pg_rate=$(throughput "postgresql:///throughput?host=$pg_dir&user=postgres")
bead_rate=$(throughput "$work/beads/mail.db")
record P6 "8 concurrent senders x $sends: postgresql vs bead store ($pg_rate vs $bead_rate msg/s)" \
  "$(ratio "$pg_rate" "$bead_rate")x"

{
  echo "| id | measure | result |"
  echo "|---|---|---|"
  awk -F'\t' '{ printf "| %s | %s | %s |\n", $1, $2, $3 }' "$results"
} | tee "$out/postgres.md"
