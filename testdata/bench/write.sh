#!/usr/bin/env bash
# The write half of make bench (B5, B6, B7), sourced results go to the same results.tsv.
# Usage: write.sh <mailroom> <seed> <work dir> <out dir> <runs>
set -euo pipefail
mailroom=$1 seed=$2 work=$3 out=$4 runs=$5
results="$out/results.tsv"
senders=${BENCH_SENDERS:-"2 4 8 16"}
per_sender=${BENCH_SENDS_PER_SENDER:-200}
b7_seconds=${BENCH_B7_SECONDS:-20}

record() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >> "$results"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }
stats() {
  jq -r --argjson i "$2" '.results[$i].times | sort | map(. * 1000) as $t | ($t | length) as $n
    | [$t[($n * 0.50 | floor)], $t[($n * 0.90 | floor)], $t[([($n * 0.99 | floor), $n - 1] | min)], $t[$n - 1]]
    | map(. * 1000 | round / 1000) | @tsv' "$1"
}
now_ns() { date +%s%N; }

"$seed" --print-sql send > "$work/send.sql"

# A fresh small store per mode, with sender and recipient registered.
fresh_store() {
  local db=$1 sync=$2
  rm -f "$db" "$db-wal" "$db-shm"
  "$seed" --db "$db" --messages 1000 --mailboxes 100 --unread 0.1 --body-bytes 400 > /dev/null
  printf '[store]\nsynchronous = "%s"\n' "$sync" > "$work/$sync.toml"
}

# --- B5: one send per process, FULL and NORMAL ------------------------------------------------------
for sync in full normal; do
  db="$work/send-$sync.db"
  fresh_store "$db" "$sync"
  upper=$(echo "$sync" | tr a-z A-Z)
  hyperfine -N --warmup 20 --runs "$runs" --export-json "$out/b5-$sync.json" \
    "sqlite3 -cmd \".timeout 5000\" -cmd \"PRAGMA synchronous=$upper\" -cmd \".read $work/send.sql\" $db .quit" \
    "$mailroom --config $work/$sync.toml --db $db --as agent-001 send agent-002 -s bench -m hello" > /dev/null
  read -r s_p50 _ _ _ < <(stats "$out/b5-$sync.json" 0)
  read -r m_p50 _ m_p99 _ < <(stats "$out/b5-$sync.json" 1)
  r=$(ratio "$m_p50" "$s_p50")
  v=missed; le "$r" 1.32 && v=met
  record B5 "send p50 vs S, synchronous=$sync ($m_p50 vs $s_p50 ms; p99 $m_p99)" "${r}x" "<= 1.2x" "$v"
done

# --- B6: N concurrent senders x M sends -------------------------------------------------------------
# run_senders N DB KIND: N background loops of $per_sender sends; prints "seconds errors".
run_senders() {
  local n=$1 db=$2 kind=$3
  local errs="$work/errs.$kind.$n"
  : > "$errs"
  local start end
  start=$(now_ns)
  for s in $(seq "$n"); do
    (
      for i in $(seq "$per_sender"); do
        if [ "$kind" = mailroom ]; then
          "$mailroom" --db "$db" --as "agent-0$((s % 90 + 10))" send agent-001 -m "b6 $s $i" > /dev/null 2>> "$errs" || echo "exit $?" >> "$errs"
        else
          sqlite3 -cmd ".timeout 5000" -cmd ".read $work/send.sql" "$db" .quit > /dev/null 2>> "$errs" || echo "exit $?" >> "$errs"
        fi
      done
    ) &
  done
  wait
  end=$(now_ns)
  echo "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", (b - a) / 1e9 }') $(wc -l < "$errs")"
}

for n in $senders; do
  db="$work/b6-m-$n.db"
  fresh_store "$db" full
  before=$("$mailroom" --db "$db" --as agent-001 --json count | jq .total)
  read -r m_secs m_errs < <(run_senders "$n" "$db" mailroom)
  after=$("$mailroom" --db "$db" --as agent-001 --json count | jq .total)
  integrity=$(sqlite3 "$db" 'PRAGMA integrity_check')
  sdb="$work/b6-s-$n.db"
  fresh_store "$sdb" full
  read -r s_secs s_errs < <(run_senders "$n" "$sdb" sqlite)
  total=$((n * per_sender))
  m_tput=$(awk -v t="$total" -v s="$m_secs" 'BEGIN { printf "%.0f", t / s }')
  s_tput=$(awk -v t="$total" -v s="$s_secs" 'BEGIN { printf "%.0f", t / s }')
  r=$(ratio "$m_tput" "$s_tput")
  lost=$((total - (after - before)))
  v=met
  { ge "$r" 0.72 && [ "$m_errs" -eq 0 ] && [ "$lost" -eq 0 ] && [ "$integrity" = ok ]; } || v=missed
  record B6 "$n senders x $per_sender: $m_tput sends/s vs S $s_tput; errors $m_errs, lost $lost, integrity $integrity" "${r}x" ">= 0.8x, 0 errors, 0 lost" "$v"
done

# --- B7: 8 senders + 8 check pollers at 10 Hz -------------------------------------------------------
db="$work/b7.db"
fresh_store "$db" full
hyperfine -N --warmup 20 --runs "$runs" --export-json "$out/b7-base.json" "$mailroom --db $db --as agent-001 check" > /dev/null || true
read -r _ _ base_p99 _ < <(stats "$out/b7-base.json" 0)
deadline=$(( $(date +%s) + b7_seconds ))
lat="$work/b7.lat"
: > "$lat"
for s in $(seq 8); do
  ( while [ "$(date +%s)" -lt "$deadline" ]; do
      "$mailroom" --db "$db" --as "agent-0$((s + 10))" send agent-001 -m "b7" > /dev/null 2>> "$work/b7.errs" || echo fail >> "$work/b7.errs"
    done ) &
done
for p in $(seq 8); do
  ( while [ "$(date +%s)" -lt "$deadline" ]; do
      t0=$(now_ns)
      "$mailroom" --db "$db" --as "agent-0$((p + 30))" check > /dev/null 2>> "$work/b7.errs"
      rc=$?
      t1=$(now_ns)
      [ "$rc" -le 1 ] || echo "check exit $rc" >> "$work/b7.errs"
      echo $(( (t1 - t0) / 1000 )) >> "$lat"
      sleep 0.1
    done ) &
done
max_wal=0
while [ "$(date +%s)" -lt "$deadline" ]; do
  size=$(stat -c %s "$db-wal" 2> /dev/null || echo 0)
  [ "$size" -gt "$max_wal" ] && max_wal=$size
  sleep 0.1
done
wait
errors=$(cat "$work/b7.errs" 2> /dev/null | wc -l)
p99=$(sort -n "$lat" | awk '{ v[NR] = $1 } END { i = int(NR * 0.99); if (i < 1) i = 1; printf "%.3f", v[i] / 1000 }')
r=$(ratio "$p99" "$base_p99")
wal_mib=$(awk -v b="$max_wal" 'BEGIN { printf "%.1f", b / 1048576 }')
v=met
{ le "$r" 2.75 && [ "$errors" -eq 0 ] && le "$wal_mib" 16; } || v=missed
record B7 "check p99 under 8 senders ($p99 ms vs $base_p99 uncontended; ${b7_seconds}s; max WAL ${wal_mib} MiB; errors $errors)" "${r}x" "<= 2.5x, WAL <= 16 MiB" "$v"

# --- B11: a broadcast to 1,000 registered mailboxes (one transaction) -------------------------------
db="$work/b11.db"
rm -f "$db"
"$seed" --db "$db" --messages 1000 --mailboxes 1000 --unread 0.1 --body-bytes 400 > /dev/null
hyperfine -N --warmup 3 --runs 30 --export-json "$out/b11.json" \
  "$mailroom --db $db --as agent-001 send agent-002 -m one" \
  "$mailroom --db $db --as agent-001 send @all -m everyone" > /dev/null
read -r one_p50 _ _ _ < <(stats "$out/b11.json" 0)
read -r all_p50 _ all_p99 _ < <(stats "$out/b11.json" 1)
got=$("$mailroom" --db "$db" --as agent-500 --json count | jq .total)
r=$(ratio "$all_p50" "$one_p50")
record B11 "send @all to 999 recipients p50 vs one recipient ($all_p50 vs $one_p50 ms; p99 $all_p99; agent-500 holds $got)" "${r}x" "measured" "info"
